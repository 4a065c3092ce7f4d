package io.github.leanscrape.support;

import io.micrometer.core.instrument.Clock;

/**
 * A clock that never moves, for wall and monotonic time alike, so that two scrapes of a
 * registry are equal in every format (protobuf carries created timestamps, long task
 * timers durations).
 */
public final class FrozenClock implements Clock {

	private static final long WALL_TIME = 1_700_000_000_000L;

	@Override
	public long wallTime() {
		return WALL_TIME;
	}

	@Override
	public long monotonicTime() {
		return 5_000_000_000L;
	}

}
