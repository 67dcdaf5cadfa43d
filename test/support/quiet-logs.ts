import { Logger } from '@nestjs/common';

// Tests assert on what is logged through spies; the console stays readable.
Logger.overrideLogger(false);
