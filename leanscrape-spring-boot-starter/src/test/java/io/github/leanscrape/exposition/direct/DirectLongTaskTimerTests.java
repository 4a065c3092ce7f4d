package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Long task timers without buckets (every Spring MVC and WebFlux application has
 * {@code http.server.requests.active}) written directly, against Spring Boot's endpoint
 * on the same registry, while tasks start and stop and the clock moves.
 */
class DirectLongTaskTimerTests {

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void longTaskTimersAreSpringBootsWhileTasksComeAndGoWithAndWithoutBuckets() throws Exception {
		MockClock clock = new MockClock();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), clock);
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		LongTaskTimer active = LongTaskTimer.builder("http.server.requests.active")
			.tags("exception", "none", "method", "GET", "outcome", "SUCCESS", "status", "200", "uri", "UNKNOWN")
			.register(registry);
		LongTaskTimer other = LongTaskTimer.builder("http.server.requests.active")
			.tags("exception", "none", "method", "POST", "outcome", "SUCCESS", "status", "200", "uri", "UNKNOWN")
			.register(registry);
		LongTaskTimer percentiles = LongTaskTimer.builder("jobs.running")
			.description("Jobs \"running\" now")
			.publishPercentiles(0.5, 0.99)
			.register(registry);
		// With buckets, gauge histograms: text 0.0.4 writes their _gcount and _gsum as
		// gauge families of their own.
		LongTaskTimer batchA = LongTaskTimer.builder("batch.running")
			.tag("queue", "a")
			.description("Batches running")
			.serviceLevelObjectives(Duration.ofSeconds(1), Duration.ofSeconds(10))
			.register(registry);
		LongTaskTimer batchB = LongTaskTimer.builder("batch.running")
			.tag("queue", "b")
			.description("Batches running")
			.serviceLevelObjectives(Duration.ofSeconds(1), Duration.ofSeconds(10))
			.register(registry);
		LongTaskTimer histogram = LongTaskTimer.builder("imports.running")
			.publishPercentileHistogram()
			.register(registry);
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		assertAllFormats(renderer, boot, null);
		LongTaskTimer.Sample first = active.start();
		percentiles.start();
		batchA.start();
		batchB.start();
		histogram.start();
		clock.add(Duration.ofMillis(1500));
		batchA.start();
		LongTaskTimer.Sample second = active.start();
		percentiles.start();
		clock.add(Duration.ofMillis(250));
		assertAllFormats(renderer, boot, null);
		other.start();
		first.stop();
		clock.add(Duration.ofSeconds(3));
		assertAllFormats(renderer, boot, null);
		assertAllFormats(renderer, boot,
				Set.of("jobs_running_seconds_max", "http_server_requests_active_seconds", "batch_running_seconds"));
		assertThat(new String(boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody(),
				StandardCharsets.UTF_8))
			.contains("# TYPE batch_running_seconds_gcount gauge\nbatch_running_seconds_gcount{queue=\"a\"} 2\n");
		second.stop();
		assertAllFormats(renderer, boot, null);
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		assertThat(renderer.familyFallbacks()).isZero();
	}

	private void assertAllFormats(DirectRenderer renderer, PrometheusScrapeEndpoint boot, @Nullable Set<String> names)
			throws Exception {
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
		}
	}

}
