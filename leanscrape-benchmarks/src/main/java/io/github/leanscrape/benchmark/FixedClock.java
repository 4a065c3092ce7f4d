package io.github.leanscrape.benchmark;

import io.micrometer.core.instrument.Clock;

/**
 * A {@link Clock} frozen at one instant, for wall and monotonic time alike.
 * <p>
 * Counters and histograms carry the time they were created into protobuf bodies; with a
 * frozen clock every registry built from the same recipe gives the same bytes in every
 * format, and nothing in a scrape depends on when it ran.
 *
 * @author leanscrape
 */
final class FixedClock implements Clock {

	/**
	 * 2025-01-01T00:00:00Z, in milliseconds since the epoch.
	 */
	private static final long WALL_TIME = 1_735_689_600_000L;

	@Override
	public long wallTime() {
		return WALL_TIME;
	}

	@Override
	public long monotonicTime() {
		return WALL_TIME * 1_000_000L;
	}

}
