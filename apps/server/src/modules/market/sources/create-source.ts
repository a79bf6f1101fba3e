import { ExternalFeedSource } from './external-feed.ts';
import { FixSource } from './fix-source.ts';
import type { PriceSource, SourceDeps } from './price-source.ts';
import { ReplaySource } from './replay.ts';
import { SimulatorSource } from './simulator.ts';

/** The source chosen by PRICE_SOURCE. */
export function createPriceSource(deps: SourceDeps): PriceSource {
  switch (deps.config.PRICE_SOURCE) {
    case 'replay':
      return new ReplaySource(deps);
    case 'external':
      return new ExternalFeedSource(deps);
    case 'fix':
      return new FixSource(deps);
    default:
      return new SimulatorSource(deps);
  }
}
