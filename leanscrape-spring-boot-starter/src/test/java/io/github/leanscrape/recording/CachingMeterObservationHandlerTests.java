package io.github.leanscrape.recording;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.observation.Observation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.micrometer.metrics.MaximumAllowableTagsMeterFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CachingMeterObservationHandler}: every scenario runs the same
 * observations through Micrometer's default handler on a twin registry, and the two
 * registries' scrapes must be equal.
 */
class CachingMeterObservationHandlerTests {

	private static final String NAME = "http.server.requests";

	/**
	 * Whether the handler reads the context's own map of key values (the default where
	 * the runtime allows it) or always the public copy.
	 */
	boolean readContextInternals() {
		return true;
	}

	TwinRegistries twins(int maxCachedMeters, IgnoredMeters... ignored) {
		return twins(maxCachedMeters, (registry) -> {
		}, ignored);
	}

	TwinRegistries twins(int maxCachedMeters, Consumer<MeterRegistry> configurer, IgnoredMeters... ignored) {
		return new TwinRegistries(maxCachedMeters, readContextInternals(), configurer, ignored);
	}

	enum LongTaskTimers {

		RECORDED, IGNORED;

		IgnoredMeters[] ignored() {
			return (this == IGNORED) ? new IgnoredMeters[] { IgnoredMeters.LONG_TASK_TIMER } : new IgnoredMeters[0];
		}

	}

	@ParameterizedTest
	@EnumSource(LongTaskTimers.class)
	void mixedObservationsProduceTheSameScrapeAsTheDefaultHandler(LongTaskTimers longTaskTimers) {
		TwinRegistries twins = twins(2000, longTaskTimers.ignored());
		for (int round = 0; round < 3; round++) {
			twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1_000_000L + round);
			twins.observe(NAME, request("POST", "/items/{id}", "201", "SUCCESS"), 7_000_000L);
			// Key values added at stop: the timer sees them, the long task timer does
			// not.
			twins.observe(NAME, KeyValues.of("method", "GET", "uri", "UNKNOWN"),
					KeyValues.of("status", "404", "uri", "NOT_FOUND", "outcome", "CLIENT_ERROR"), null, 500_000L);
			twins.observe(NAME, request("GET", "/boom", "500", "SERVER_ERROR"), KeyValues.empty(),
					new IllegalStateException("boom"), 2_000_000L);
			// Anonymous exception classes have an empty simple name.
			twins.observe(NAME, request("GET", "/boom", "500", "SERVER_ERROR"), KeyValues.empty(),
					new RuntimeException() {
					}, 3_000_000L);
			// A key value called "error" competes with the handler's error tag.
			twins.observe("custom.work", KeyValues.of("error", "mine", "kind", "a"), KeyValues.empty(),
					new IllegalArgumentException(), 10L);
			twins.observe("custom.work", KeyValues.of("error", "mine", "kind", "a"), 20L);
			twins.observe("custom.empty", KeyValues.empty(), 30L);
		}
		// Events count as with the default handler.
		TwinRegistries.Pair withEvent = twins.start("custom.events", KeyValues.of("kind", "b"));
		withEvent.each((observation) -> observation.event(Observation.Event.of("retried")));
		withEvent.stop();
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
		assertThat(TwinRegistries.openMetrics(twins.registry)).isEqualTo(TwinRegistries.openMetrics(twins.reference));
		assertThat(twins.handler.cachedMeterCount()).isPositive();
	}

	@Test
	void activeLongTaskTimersMatchTheDefaultHandlerWhileObservationsRun() {
		TwinRegistries twins = twins(2000);
		List<TwinRegistries.Pair> running = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			running.add(twins.start(NAME, request("GET", "/slow", "200", "SUCCESS")));
			twins.advance(1_000_000_000L);
		}
		running.add(twins.start(NAME, request("GET", "/other", "200", "SUCCESS")));
		twins.advance(250_000_000L);
		assertThat(twins.registry.get(NAME + ".active").longTaskTimers()).hasSize(2);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
		running.get(1).stop();
		running.get(5).stop();
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
		running.forEach((pair) -> {
			if (pair != running.get(1) && pair != running.get(5)) {
				pair.stop();
			}
		});
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void recordsTheClockTimeBetweenStartAndStop() {
		TwinRegistries twins = twins(2000);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1_500_000L);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 2_500_000L);
		Timer timer = twins.registry.get(NAME).tag("uri", "/hello").tag("error", "none").timer();
		assertThat(timer.count()).isEqualTo(2);
		assertThat(timer.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(4_000_000.0);
		assertThat(timer.max(TimeUnit.NANOSECONDS)).isEqualTo(2_500_000.0);
	}

	@Test
	void resolvesEachCombinationOnceAndThenRecordsIntoTheCachedMeters() {
		TwinRegistries twins = twins(2000);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(2);
		Timer timer = twins.registry.get(NAME).timer();
		LongTaskTimer longTaskTimer = twins.registry.get(NAME + ".active").longTaskTimer();
		for (int i = 0; i < 10; i++) {
			twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		}
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(2);
		assertThat(twins.registry.get(NAME).timers()).containsExactly(timer);
		assertThat(twins.registry.get(NAME + ".active").longTaskTimers()).containsExactly(longTaskTimer);
		assertThat(timer.count()).isEqualTo(11);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), KeyValues.empty(), new IllegalStateException(),
				1L);
		// A new error value is a new timer; the long task timer's key has no error value.
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(3);
	}

	@Test
	void deniedMetersAreNeverCachedSoAFilterThatLaterAcceptsIsHonoured() {
		AtomicBoolean deny = new AtomicBoolean(true);
		MeterFilter switchable = new MeterFilter() {

			@Override
			public MeterFilterReply accept(Meter.Id id) {
				return deny.get() ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
			}

		};
		TwinRegistries twins = twins(2000, (registry) -> registry.config().meterFilter(switchable));
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(twins.handler.cachedMeterCount()).isZero();
		assertThat(twins.registry.find(NAME).timer()).isNull();
		deny.set(false);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(twins.registry.get(NAME).timer().count()).isEqualTo(1);
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(2);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void metersOverSpringBootsMaximumUriTagsAreNotCached() {
		TwinRegistries twins = twins(2000,
				(registry) -> registry.config().meterFilter(new MaximumAllowableTagsMeterFilter(NAME, "uri", 2)));
		for (int round = 0; round < 3; round++) {
			for (String uri : new String[] { "/a", "/b", "/c", "/d" }) {
				twins.observe(NAME, request("GET", uri, "200", "SUCCESS"), 1L);
			}
		}
		// Only /a and /b pass the filter: their timers and long task timers are cached.
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(4);
		assertThat(twins.registry.get(NAME).timers()).hasSize(2);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void aFullCacheFallsBackToTheRegistryAndRecordsTheSameMeters() {
		TwinRegistries twins = twins(3);
		for (int round = 0; round < 4; round++) {
			for (int route = 0; route < 10; route++) {
				twins.observe(NAME, request("GET", "/route" + route, "200", "SUCCESS"), 1_000L * (route + 1));
			}
		}
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(3);
		assertThat(twins.registry.get(NAME).timers()).hasSize(10);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void aMeterRemovedFromTheRegistryLeavesTheCache() {
		TwinRegistries twins = twins(2000);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		twins.observe(NAME, request("GET", "/bye", "200", "SUCCESS"), 1L);
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(4);
		Timer removed = twins.registry.get(NAME).tag("uri", "/hello").timer();
		twins.both((registry) -> registry.remove(registry.get(NAME).tag("uri", "/hello").timer()));
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(3);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		Timer recreated = twins.registry.get(NAME).tag("uri", "/hello").timer();
		assertThat(recreated).isNotSameAs(removed);
		assertThat(recreated.count()).isEqualTo(1);
		assertThat(twins.handler.cachedMeterCount()).isEqualTo(4);
		twins.both((registry) -> {
			registry.clear();
			return null;
		});
		assertThat(twins.handler.cachedMeterCount()).isZero();
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void aMeterFilterAddedAfterAMeterWasCachedAppliesOnlyOnceTheCacheIsCleared() {
		// Documented limitation: Micrometer re-applies a late filter on the next registry
		// lookup, which a cache hit skips.
		TwinRegistries twins = twins(2000);
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		twins.both((registry) -> registry.config().commonTags("region", "eu"));
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(twins.reference.get(NAME).tag("region", "eu").timer().count()).isEqualTo(1);
		assertThat(twins.registry.find(NAME).tag("region", "eu").timer()).isNull();
		twins.handler.clearCache();
		twins.observe(NAME, request("GET", "/hello", "200", "SUCCESS"), 1L);
		assertThat(twins.registry.get(NAME).tag("region", "eu").timer().count()).isEqualTo(1);
	}

	@Test
	void concurrentObservationsAreAllRecorded() throws Exception {
		TwinRegistries twins = twins(20);
		int threads = 4;
		int perThread = 5_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int seed = t;
				futures.add(executor.submit(() -> {
					go.await();
					for (int i = 0; i < perThread; i++) {
						String uri = "/route" + ((i * 7 + seed) % 50);
						Observation.createNotStarted(NAME, twins.observations)
							.lowCardinalityKeyValues(request("GET", uri, "200", "SUCCESS"))
							.start()
							.stop();
						if (i % 1000 == 999 && seed == 0) {
							// Removals race with lookups and puts.
							Timer timer = twins.registry.find(NAME).tag("uri", "/route3").timer();
							if (timer != null) {
								twins.registry.remove(timer);
							}
						}
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(twins.handler.cachedMeterCount()).isLessThanOrEqualTo(20);
		// Every cached meter is still the registry's own.
		long recorded = 0;
		for (Timer timer : twins.registry.get(NAME).timers()) {
			recorded += timer.count();
		}
		long lostToRemovals = (long) threads * perThread - recorded;
		assertThat(lostToRemovals).isNotNegative();
		// Now that nothing is removed any more, every observation lands in the registry.
		long before = recorded;
		for (int i = 0; i < 1000; i++) {
			Observation.createNotStarted(NAME, twins.observations)
				.lowCardinalityKeyValues(request("GET", "/route" + (i % 50), "200", "SUCCESS"))
				.start()
				.stop();
		}
		long after = 0;
		for (Timer timer : twins.registry.get(NAME).timers()) {
			after += timer.count();
		}
		assertThat(after - before).isEqualTo(1000);
		assertThat(twins.registry.get(NAME + ".active").longTaskTimers())
			.allSatisfy((longTaskTimer) -> assertThat(longTaskTimer.activeTasks()).isZero());
	}

	@Test
	void combinationsWithEqualHashesKeepTheirOwnMeters() {
		// "Aa" and "BB" have the same String hash code, so the two keys hash alike.
		assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
		TwinRegistries twins = twins(2000);
		for (int i = 0; i < 3; i++) {
			twins.observe(NAME, request("GET", "Aa", "200", "SUCCESS"), 1L);
			twins.observe(NAME, request("GET", "BB", "200", "SUCCESS"), 2L);
			twins.observe(NAME, request("GET", "BB", "200", "SUCCESS"), KeyValues.empty(), new IllegalStateException(),
					3L);
		}
		assertThat(twins.registry.get(NAME).tag("uri", "Aa").timer().count()).isEqualTo(3);
		assertThat(twins.registry.get(NAME).tag("uri", "BB").tag("error", "none").timer().count()).isEqualTo(3);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	@Test
	void theContextsOwnMapIsReadableInThisRuntime() {
		// Otherwise these tests would not exercise the direct path.
		assertThat(ContextKeyValues.isAvailable()).isTrue();
	}

	@Test
	void contextsThatOverrideTheKeyValueAccessorsAreReadThroughThem() {
		assertThat(ContextKeyValues.lowCardinality(new ExtraKeyValueContext())).isNull();
		TwinRegistries twins = twins(2000);
		for (int i = 0; i < 3; i++) {
			twins.referenceClock.add(java.time.Duration.ofMillis(1));
			twins.clock.add(java.time.Duration.ofMillis(1));
			Observation.createNotStarted(NAME, ExtraKeyValueContext::new, twins.referenceObservations)
				.lowCardinalityKeyValues(request("GET", "/hello", "200", "SUCCESS"))
				.start()
				.stop();
			Observation.createNotStarted(NAME, ExtraKeyValueContext::new, twins.observations)
				.lowCardinalityKeyValues(request("GET", "/hello", "200", "SUCCESS"))
				.start()
				.stop();
		}
		assertThat(twins.registry.get(NAME).tag("extra", "yes").timer().count()).isEqualTo(3);
		assertThat(TwinRegistries.text(twins.registry)).isEqualTo(TwinRegistries.text(twins.reference));
	}

	private static KeyValues request(String method, String uri, String status, String outcome) {
		return KeyValues.of("exception", "none", "method", method, "outcome", outcome, "status", status, "uri", uri);
	}

	/**
	 * A context whose public accessor adds a key value that its map does not hold.
	 */
	static final class ExtraKeyValueContext extends Observation.Context {

		@Override
		public KeyValues getLowCardinalityKeyValues() {
			return super.getLowCardinalityKeyValues().and("extra", "yes");
		}

	}

}
