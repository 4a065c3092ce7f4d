package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.ReferenceRenderer;
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
	void longTaskTimersAreSpringBootsWhileTasksComeAndGo() throws Exception {
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
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		assertSame(renderer, boot, null);
		LongTaskTimer.Sample first = active.start();
		percentiles.start();
		clock.add(Duration.ofMillis(1500));
		LongTaskTimer.Sample second = active.start();
		percentiles.start();
		clock.add(Duration.ofMillis(250));
		assertSame(renderer, boot, null);
		other.start();
		first.stop();
		clock.add(Duration.ofSeconds(3));
		assertSame(renderer, boot, null);
		assertSame(renderer, boot, Set.of("jobs_running_seconds_max", "http_server_requests_active_seconds"));
		second.stop();
		assertSame(renderer, boot, null);
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		assertThat(renderer.familyFallbacks()).isZero();
	}

	private void assertSame(DirectRenderer renderer, PrometheusScrapeEndpoint boot, @Nullable Set<String> names)
			throws Exception {
		for (PrometheusOutputFormat format : new PrometheusOutputFormat[] { PrometheusOutputFormat.CONTENT_TYPE_004,
				PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 }) {
			ChunkedOutput output = new ChunkedOutput(this.pool, BodyKind.of(format, names), 0);
			renderer.render(format, names, output);
			PooledBody body = output.toBody();
			try {
				assertThat(new String(body.toByteArray(), StandardCharsets.UTF_8))
					.isEqualTo(new String(boot.scrape(format, names).getBody(), StandardCharsets.UTF_8));
			}
			finally {
				body.release();
			}
		}
	}

}
