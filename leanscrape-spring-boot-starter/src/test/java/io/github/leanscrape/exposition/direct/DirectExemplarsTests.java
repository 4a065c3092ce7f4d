package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exemplars written straight from the meters, against Spring Boot's endpoint on the same
 * registry (exemplar timestamps are the wall clock's, so the two must read the same
 * meters): counters, timers and distribution summaries with and without percentiles and
 * histograms, a new span for every recording, with and without exemplars on all metric
 * types.
 */
class DirectExemplarsTests {

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void exemplarsAreSpringBootsOnEveryMeterType(boolean onAllMetricTypes) throws Exception {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		properties.setProperty("io.prometheus.exporter.exemplarsOnAllMetricTypes", String.valueOf(onAllMetricTypes));
		// Sample every recording, so that buckets and slots fill within the test.
		properties.setProperty("io.prometheus.exemplars.sampleIntervalMilliseconds", "1");
		properties.setProperty("io.prometheus.exemplars.minRetentionPeriodSeconds", "1");
		PrometheusConfig config = SpringBootsBytes.config(properties);
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(config, new PrometheusRegistry(), Clock.SYSTEM,
				new CountingSpanContext());
		Counter counter = Counter.builder("requests").tag("uri", "/a\"b\\c\nd").register(registry);
		Counter.builder("untouched").register(registry);
		Timer plain = Timer.builder("plain").register(registry);
		Timer percentiles = Timer.builder("percentiles").publishPercentiles(0.5, 0.95).register(registry);
		Timer slos = Timer.builder("slos")
			.serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(100))
			.register(registry);
		Timer histogram = Timer.builder("histogram").publishPercentileHistogram().register(registry);
		DistributionSummary sizes = DistributionSummary.builder("sizes").scale(2).register(registry);
		DistributionSummary sizePercentiles = DistributionSummary.builder("size.percentiles")
			.publishPercentiles(0.5)
			.register(registry);
		DistributionSummary sizeSlos = DistributionSummary.builder("size.slos")
			.serviceLevelObjectives(10, 1000)
			.register(registry);
		AtomicInteger function = new AtomicInteger(3);
		FunctionCounter.builder("functions", function, AtomicInteger::get).register(registry);
		// 10, 100 and 1000 lie on bucket bounds, which belong to the bucket below; they
		// come first, as a slot keeps its first exemplar for the minimum retention.
		long[] millis = { 10, 100, 1000, 1, 5, 50, 500, 5000, 0 };
		for (long each : millis) {
			counter.increment(each + 0.5);
			plain.record(Duration.ofMillis(each));
			percentiles.record(Duration.ofMillis(each));
			slos.record(Duration.ofMillis(each));
			histogram.record(Duration.ofNanos(each * 1_000_123));
			sizes.record(each);
			sizePercentiles.record(each);
			sizeSlos.record(each);
			Thread.sleep(5);
		}
		DirectRenderer renderer = new DirectRenderer(registry, config, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		String expected = new String(boot.scrape(OPENMETRICS, null).getBody(), StandardCharsets.UTF_8);
		assertThat(expected).contains("# {span_id=").contains("slos_seconds_bucket{le=\"0.01\"}");
		assertThat(expected.contains("plain_seconds_count 9 # {")).isEqualTo(onAllMetricTypes);
		SpringBootsBytes.assertSame(renderer, boot, this.pool, OPENMETRICS, null);
		SpringBootsBytes.assertSame(renderer, boot, this.pool, OPENMETRICS,
				Set.of("requests", "slos_seconds", "size_percentiles"));
		SpringBootsBytes.assertSame(renderer, boot, this.pool, TEXT, null);
		byte[] protobuf = boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF, null).getBody();
		assertThat(new String(protobuf, StandardCharsets.ISO_8859_1)).contains("span_id");
		SpringBootsBytes.assertSame(renderer, boot, this.pool, PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF, null);
		SpringBootsBytes.assertSame(renderer, boot, this.pool, PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF,
				Set.of("requests", "slos_seconds", "size_percentiles"));
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		assertThat(renderer.directScrapes()).isEqualTo(5);
		assertThat(this.pool.chunksInUse()).isZero();
	}

	/**
	 * A sampled span for every recording, with ids that tell them apart.
	 */
	private static final class CountingSpanContext implements SpanContext {

		private final AtomicInteger spans = new AtomicInteger();

		@Override
		public @Nullable String getCurrentTraceId() {
			return "4bf92f3577b34da6a3ce929d0e0e" + (1000 + this.spans.get());
		}

		@Override
		public @Nullable String getCurrentSpanId() {
			return "00f067aa0ba9" + (1000 + this.spans.getAndIncrement());
		}

		@Override
		public boolean isCurrentSpanSampled() {
			return true;
		}

		@Override
		public void markCurrentSpanAsExemplar() {
		}

	}

}
