package io.github.leanscrape.recording;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the timing of a request recorded without Micrometer's observation
 * ({@link RecordedObservation#startTiming}, {@link RecordedObservation#stopTiming}): the
 * durations the default meter handler's timer sample would give, and the clock read twice
 * less per request where Micrometer's own long task timer times it.
 */
class RecordedObservationTimingTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private final CountingClock clock = new CountingClock();

	@Test
	void micrometersLongTaskTimerTimesTheRequestWithTwoReadsOfTheClock() {
		// The long task's start and stop; the default handler reads it twice more.
		assertThat(readsToTimeASecond(micrometersLongTaskTimer(), 1)).isEqualTo(2);
	}

	@Test
	void withoutLongTaskTimerTheClockTimesTheRequest() {
		assertThat(readsToTimeASecond(null, 0)).isEqualTo(2);
	}

	@Test
	void aDeniedLongTaskTimerLeavesTheClockToTimeTheRequest() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.clock);
		registry.config().meterFilter(MeterFilter.denyNameStartsWith("requests"));
		LongTaskTimer denied = LongTaskTimer.builder("requests.active").register(registry);
		// A no-op sample's stop gives no duration.
		assertThat(readsToTimeASecond(denied, 0)).isEqualTo(2);
	}

	@Test
	void anotherLongTaskTimerIsStartedAndStoppedBesideTheClock() {
		CompositeMeterRegistry registry = new CompositeMeterRegistry(this.clock);
		registry.add(new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.clock));
		// The composite's sample is not Micrometer's own: the starter reads the clock.
		assertThat(readsToTimeASecond(LongTaskTimer.builder("requests.active").register(registry), 1)).isEqualTo(4);
	}

	/**
	 * Time a request of a second, with its long task, if any, active meanwhile.
	 * @param active the long task timer, or {@code null}
	 * @param activeTasks how many active tasks the timer has during the request
	 * @return how many times the clock was read
	 */
	private int readsToTimeASecond(@Nullable LongTaskTimer active, int activeTasks) {
		this.clock.reads = 0;
		TimedObservation observation = new TimedObservation();
		observation.startTiming(active, this.clock);
		assertThat((active != null) ? active.activeTasks() : 0).isEqualTo(activeTasks);
		this.clock.now += SECOND;
		assertThat(observation.stopTiming(this.clock, false)).isEqualTo(SECOND);
		assertThat((active != null) ? active.activeTasks() : 0).isZero();
		return this.clock.reads;
	}

	@Test
	void stoppedBeforeItsEndTheRequestIsTimedAgainFromTheSameStart() {
		LongTaskTimer active = micrometersLongTaskTimer();
		TimedObservation observation = new TimedObservation();
		observation.startTiming(active, this.clock);
		this.clock.now += SECOND;
		assertThat(observation.stopTiming(this.clock, true)).isEqualTo(SECOND);
		assertThat(active.activeTasks()).isZero();
		this.clock.now += SECOND;
		// As a timer sample stopped twice: the time since the same start.
		assertThat(observation.stopTiming(this.clock, false)).isEqualTo(2 * SECOND);
	}

	@Test
	void stoppedAfterItsEndTheRequestRecordsTheEndsDurationAgain() {
		LongTaskTimer active = micrometersLongTaskTimer();
		TimedObservation observation = new TimedObservation();
		observation.startTiming(active, this.clock);
		this.clock.now += SECOND;
		assertThat(observation.stopTiming(this.clock, false)).isEqualTo(SECOND);
		this.clock.now += SECOND;
		assertThat(observation.stopTiming(this.clock, true)).isEqualTo(SECOND);
		assertThat(active.activeTasks()).isZero();
	}

	private LongTaskTimer micrometersLongTaskTimer() {
		return LongTaskTimer.builder("requests.active")
			.register(new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.clock));
	}

	/**
	 * A clock moved on by the test, which counts its reads of the monotonic time.
	 */
	private static final class CountingClock implements Clock {

		long now = 100 * SECOND;

		int reads;

		@Override
		public long wallTime() {
			return TimeUnit.NANOSECONDS.toMillis(this.now);
		}

		@Override
		public long monotonicTime() {
			this.reads++;
			return this.now;
		}

	}

	private static final class TimedObservation extends RecordedObservation<Observation.Context> {

		TimedObservation() {
			super(new Observation.Context());
		}

		@Override
		protected @Nullable CachingMeterObservationHandler handler() {
			return null;
		}

		@Override
		public void stop() {
		}

		@Override
		public ObservationRegistry getObservationRegistry() {
			return ObservationRegistry.NOOP;
		}

	}

}
