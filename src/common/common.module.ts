import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { IdGenerator } from './id-generator';

@Global()
@Module({ providers: [Clock, IdGenerator], exports: [Clock, IdGenerator] })
export class CommonModule {}
