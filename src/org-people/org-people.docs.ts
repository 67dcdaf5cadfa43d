import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';
import { ApiPagingErrors } from '../common/paging';
import { ListPeopleResponse } from './dto/person.response';
import { PEOPLE_ERRORS } from './org-people.messages';

/** The API document's part for OrgPeopleController; the 500 is the handler's @FailureResponse. */
export const ApiOrgPeople = () =>
  applyDecorators(
    ApiTags('Organisation members'),
    ApiSession(),
    ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiListPeople = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Members and open invitations of the caller’s organisation in one list, by e-mail, a page ' +
        'at a time (any role; invitation ids for owners and admins only)',
    }),
    ApiOkResponse({ type: ListPeopleResponse }),
    ApiPagingErrors(),
    ApiErrorResponse(403, 'Not a user of an organisation', [{ error: PEOPLE_ERRORS.notOrgUser }]),
  );
