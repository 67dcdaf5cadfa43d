import { PinoLogger } from 'nestjs-pino';
import { AppLogger } from './app-logger';

describe(AppLogger.name, () => {
  const pino = { info: jest.fn(), debug: jest.fn() };
  const logger = new AppLogger(pino as unknown as PinoLogger, {});
  beforeEach(() => jest.clearAllMocks());

  it.each(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'])(
    "logs Nest's wiring (%s) at debug",
    (context) => {
      logger.log('AppModule dependencies initialized', context);
      expect(pino.debug).toHaveBeenCalledWith({ context }, 'AppModule dependencies initialized');
      expect(pino.info).not.toHaveBeenCalled();
    },
  );

  it("logs the service's own lines at info", () => {
    logger.log('Listening on port 3000', 'Bootstrap');
    expect(pino.info).toHaveBeenCalledWith({ context: 'Bootstrap' }, 'Listening on port 3000');
    expect(pino.debug).not.toHaveBeenCalled();
  });
});
