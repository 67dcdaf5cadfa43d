import { ScimError } from './scim-errors';
import { readSearchRequest, SEARCH_REQUEST_SCHEMA } from './scim-search';

const refusal = (body: unknown) => {
  try {
    readSearchRequest(body);
  } catch (error) {
    return (error as ScimError).getResponse();
  }
  throw new Error('accepted');
};

describe('readSearchRequest', () => {
  it('reads filter, paging and the projection as a GET reads its query', () => {
    const { query, projection } = readSearchRequest({
      schemas: [SEARCH_REQUEST_SCHEMA],
      filter: 'userName eq "a@example.com"',
      attributes: ['userName', 'name.givenName'],
      excludedAttributes: ['members'],
      startIndex: 2,
      count: 10,
      sortBy: 'userName',
    });
    expect(query).toEqual({
      filter: 'userName eq "a@example.com"',
      startIndex: '2',
      count: '10',
      excludedAttributes: 'members',
    });
    expect(projection).toMatchObject({ attributes: ['username', 'name.givenname'], excludedAttributes: ['members'] });
  });

  it('an empty SearchRequest lists everything', () => {
    const { query, projection } = readSearchRequest({ schemas: [SEARCH_REQUEST_SCHEMA] });
    expect(query).toEqual({ startIndex: undefined, count: undefined });
    expect(projection).toMatchObject({ attributes: null, excludedAttributes: [] });
  });

  it.each([
    [[], 'invalidSyntax'],
    [{ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] }, 'invalidSyntax'],
    [{ filter: 42 }, 'invalidFilter'],
    [{ attributes: 'emails[type eq "work"]' }, 'invalidValue'],
  ])('%j: 400 %s', (body, scimType) => {
    expect(refusal(body)).toMatchObject({ status: '400', scimType });
  });
});
