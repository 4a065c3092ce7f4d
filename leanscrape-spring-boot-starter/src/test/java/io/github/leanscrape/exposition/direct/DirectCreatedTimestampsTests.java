package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Created timestamps turned on ({@code io.prometheus.exporter.includeCreatedTimestamps}),
 * written directly in every format against Spring Boot's endpoint on the same registry:
 * OpenMetrics' {@code _created} line after each counter, summary and histogram series,
 * text 0.0.4's {@code _created} gauge families after every other family (in seconds, or
 * in milliseconds with {@code prometheusTimestampsInMs}), the families left to the
 * reference path and those of a collector outside Micrometer in their place among them,
 * meters registered at different times and after the first scrape.
 */
class DirectCreatedTimestampsTests {

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void createdTimestampsAreWrittenDirectlyInEveryFormat(boolean inMillis) throws Exception {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		properties.setProperty("io.prometheus.exporter.includeCreatedTimestamps", "true");
		properties.setProperty("io.prometheus.exporter.prometheusTimestampsInMs", String.valueOf(inMillis));
		PrometheusConfig config = SpringBootsBytes.config(properties);
		MockClock clock = new MockClock();
		// Milliseconds with one, two and three digits after the second (the clock starts
		// at
		// 1 ms), as the meters are registered.
		clock.add(Duration.ofMillis(1_700_000_000_004L));
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(config, new PrometheusRegistry(), clock);
		AtomicLong source = new AtomicLong(7);
		Counter.builder("requests").tag("uri", "/a").description("Requests").register(registry).increment(2);
		FunctionCounter.builder("reads", source, AtomicLong::doubleValue).register(registry);
		clock.add(Duration.ofMillis(37));
		Counter.builder("requests").tag("uri", "/b").description("Requests").register(registry);
		Timer.builder("calls").tag("uri", "/a").register(registry).record(Duration.ofMillis(20));
		Timer.builder("calls.histogram").publishPercentileHistogram().register(registry).record(Duration.ofMillis(3));
		Timer.builder("calls.percentiles").publishPercentiles(0.5).register(registry).record(Duration.ofSeconds(1));
		clock.add(Duration.ofMillis(600));
		DistributionSummary.builder("payload")
			.baseUnit("bytes")
			.serviceLevelObjectives(10, 100)
			.register(registry)
			.record(42);
		FunctionTimer.builder("cache.loads", source, AtomicLong::get, AtomicLong::doubleValue, TimeUnit.MILLISECONDS)
			.register(registry);
		LongTaskTimer.builder("jobs.running").register(registry).start();
		LongTaskTimer.builder("imports.running")
			.serviceLevelObjectives(Duration.ofSeconds(1))
			.register(registry)
			.start();
		Gauge.builder("queue.size", source, AtomicLong::doubleValue).register(registry);
		Gauge.builder("app.info", () -> 1).tag("version", "1.2").register(registry);
		Meter
			.builder("custom", Meter.Type.OTHER, List.of(new Measurement(() -> 3, Statistic.COUNT),
					new Measurement(() -> 4, Statistic.TOTAL), new Measurement(() -> 5, Statistic.VALUE)))
			.register(registry);
		// Meters of one name whose tag keys differ, left to the reference path.
		Counter.builder("batch").tag("queue", "a").register(registry);
		Counter.builder("batch").tag("region", "b").register(registry).increment();
		registry.getPrometheusRegistry().register(foreignCollector());
		DirectRenderer renderer = new DirectRenderer(registry, config, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		assertAllFormats(renderer, boot, null);
		clock.add(Duration.ofMillis(2_091));
		Counter.builder("requests").tag("uri", "/c").description("Requests").register(registry).increment();
		Timer.builder("calls").tag("uri", "/b").register(registry);
		assertAllFormats(renderer, boot, null);
		assertAllFormats(renderer, boot, Set.of("requests", "batch", "calls_seconds", "foreign_latency_seconds"));
		assertAllFormats(renderer, boot, Set.of("queue_size", "imports_running_seconds"));
		String text = new String(boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody(),
				StandardCharsets.UTF_8);
		assertThat(text).contains("# TYPE requests_created gauge\n", "# TYPE imports_running_seconds_created gauge\n",
				"# TYPE batch_created gauge\n", "# TYPE foreign_latency_seconds_created gauge\n",
				inMillis ? "requests_created{uri=\"/a\"} 1700000000005\n"
						: "requests_created{uri=\"/a\"} 1700000000.005\n");
		assertThat(text.indexOf("_created")).isGreaterThan(text.indexOf("# TYPE queue_size gauge"));
		assertThat(new String(boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null).getBody(),
				StandardCharsets.UTF_8))
			.contains("requests_total{uri=\"/b\"} 0.0\nrequests_created{uri=\"/b\"} 1700000000.042\n",
					"calls_seconds_sum{uri=\"/a\"} 0.02\ncalls_seconds_created{uri=\"/a\"} 1700000000.042\n",
					"imports_running_seconds_gsum 2.091\nimports_running_seconds_created 1700000000.642\n");
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		assertThat(renderer.directScrapes()).isEqualTo(12);
	}

	private void assertAllFormats(DirectRenderer renderer, PrometheusScrapeEndpoint boot, @Nullable Set<String> names)
			throws Exception {
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
		}
	}

	private static MultiCollector foreignCollector() {
		return () -> MetricSnapshots.of(
				CounterSnapshot.builder()
					.name("aaa_events")
					.help("Counted outside Micrometer")
					.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
						.labels(Labels.of("k", "v"))
						.value(3)
						.createdTimestampMillis(1_600_000_000_020L)
						.build())
					.build(),
				HistogramSnapshot.builder()
					.name("foreign_latency_seconds")
					.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
						.classicHistogramBuckets(ClassicHistogramBuckets
							.of(new double[] { 1, Double.POSITIVE_INFINITY }, new long[] { 2, 1 }))
						.sum(2.5)
						.createdTimestampMillis(1_600_000_000_300L)
						.build())
					.build());
	}

}
