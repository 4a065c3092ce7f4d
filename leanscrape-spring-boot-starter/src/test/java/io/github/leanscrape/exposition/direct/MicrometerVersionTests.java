package io.github.leanscrape.exposition.direct;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Micrometer and client_java on the class path are ones the direct path knows: every
 * internal it reads by reflection is where it expects it, and a registry of every kind of
 * meter (counters, gauges, time gauges, timers and summaries with and without histograms
 * and percentiles, long task timers, function counters and timers, custom meters), with
 * and without exemplars, with and without a name filter, is written directly, byte for
 * byte Spring Boot's, without a fallback. Run on every version of the build's matrix,
 * these fail loudly where the starter would otherwise send scrapes to the reference path
 * in silence.
 */
class MicrometerVersionTests {

	private static final Properties PROPERTIES = PrometheusConfig.DEFAULT.prometheusProperties();

	private static final String VERSIONS = "Micrometer " + version(PrometheusMeterRegistry.class) + ", client_java "
			+ version(PrometheusRegistry.class);

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@ParameterizedTest
	@EnumSource
	void everyInternalIsWhereTheDirectPathReadsIt(InternalMember member) {
		boolean expected = !member.isOnlyWhereCollectorsDescribeFamilies()
				|| ReferenceFamilies.COLLECTORS_DESCRIBE_FAMILIES;
		assertThat(member.isFound())
			.as("%s%s in %s", member.ownerName(), (member.fieldName() != null) ? "." + member.fieldName() : "",
					VERSIONS)
			.isEqualTo(expected);
	}

	@ParameterizedTest
	@EnumSource
	void everyInternalIsRegisteredForReflectionInNativeImages(InternalMember member) throws Exception {
		RuntimeHints hints = new RuntimeHints();
		new DirectRendererRuntimeHints().registerHints(hints, getClass().getClassLoader());
		String fieldName = member.fieldName();
		TypeHint type = hints.reflection().getTypeHint(TypeReference.of(member.ownerName()));
		assertThat(type).as(member.ownerName()).isNotNull();
		if (fieldName != null) {
			assertThat(type.fields()).anyMatch((field) -> field.getName().equals(fieldName));
		}
		if (member.isFound() && fieldName != null) {
			assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(member.ownerName(), fieldName)).accepts(hints);
		}
	}

	@Test
	void theRuntimeHintsAreRegisteredThroughAotFactories() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).anyMatch(DirectRendererRuntimeHints.class::isInstance);
	}

	@Test
	void everyKindOfMeterIsWrittenDirectly() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new MockClock());
		registerEveryKind(registry);
		assertWrittenDirectly(registry);
	}

	@Test
	void everyKindOfMeterIsWrittenDirectlyWithExemplars() throws Exception {
		MockClock clock = new MockClock();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), clock, new SampledSpan());
		registerEveryKind(registry);
		clock.add(Duration.ofSeconds(1));
		assertThat(ExemplarLocator.isUsable()).as("exemplars read directly in %s", VERSIONS).isTrue();
		assertWrittenDirectly(registry);
	}

	private void assertWrittenDirectly(PrometheusMeterRegistry registry) throws Exception {
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), PROPERTIES);
		for (Set<String> names : Arrays.asList(null, Set.of("orders", "checkout_seconds_max", "cache_loads_seconds"),
				Set.of("payload", "pool", "pool_sum", "evictions", "uptime_seconds"))) {
			for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
				SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
			}
		}
		assertThat(renderer.wholeScrapeFallbacks()).as("scrapes sent to the reference path in %s", VERSIONS).isZero();
		assertThat(renderer.familyFallbacks()).as("families sent to the reference path in %s", VERSIONS).isZero();
	}

	private static void registerEveryKind(PrometheusMeterRegistry registry) {
		Counter.builder("orders").tag("region", "eu").register(registry).increment(3);
		Gauge.builder("queue.size", () -> 7.0).register(registry);
		Timer timer = Timer.builder("checkout").publishPercentileHistogram().register(registry);
		timer.record(Duration.ofMillis(12));
		Timer.builder("login").publishPercentiles(0.5, 0.99).register(registry).record(Duration.ofMillis(3));
		Timer.builder("plain.timer").register(registry).record(Duration.ofMillis(5));
		DistributionSummary.builder("payload").publishPercentileHistogram().register(registry).record(512);
		DistributionSummary.builder("batch").register(registry).record(4);
		LongTaskTimer.builder("export").register(registry);
		FunctionCounter.builder("evictions", new AtomicLong(12), AtomicLong::get).register(registry);
		FunctionTimer
			.builder("cache.loads", new AtomicLong(3), AtomicLong::get, (count) -> count.get() * 0.25, TimeUnit.SECONDS)
			.register(registry);
		TimeGauge.builder("uptime", () -> 1500, TimeUnit.MILLISECONDS).register(registry);
		if (CustomStatistics.CREATED_ONCE) {
			// Older Micrometer versions read the clock for a custom meter's created
			// timestamps at every scrape: left to the reference path there, by design.
			Meter
				.builder("pool", Meter.Type.OTHER, List.of(new Measurement(() -> 4.0, Statistic.COUNT),
						new Measurement(() -> 2.5, Statistic.TOTAL), new Measurement(() -> 1.0, Statistic.VALUE)))
				.register(registry);
		}
	}

	private static String version(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return (version != null) ? version : "(version unknown)";
	}

}
