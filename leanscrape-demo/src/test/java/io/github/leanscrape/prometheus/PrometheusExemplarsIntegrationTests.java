package io.github.leanscrape.prometheus;

import java.nio.file.Path;
import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server scrapes the demo application with tracing on: OpenMetrics with
 * exemplars, written by the direct path, stored by the server and answered by its
 * exemplar API. Prometheus before 2.43 refuses a scrape with an exemplar on a
 * {@code _count} line, so the application keeps exemplars to counters and buckets, as
 * such a user would ({@code exemplarsOnAllMetricTypes=false}).
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
class PrometheusExemplarsIntegrationTests {

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	private static final String SPAN_ID = "00f067aa0ba902b7";

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static @Nullable RunningDemo demo;

	private static int port;

	@BeforeAll
	static void startDemo() {
		RunningDemo started = RunningDemo.start(500, new Class<?>[] { Tracing.class },
				"--management.prometheus.metrics.export.properties[io.prometheus.exporter.exemplarsOnAllMetricTypes]=false");
		demo = started;
		port = started.port();
	}

	@AfterAll
	static void stopDemo() {
		if (demo != null) {
			demo.close();
		}
	}

	@Test
	void prometheusStoresTheExemplarsOfTheDirectPath(@TempDir Path directory) throws Exception {
		RunningDemo application = demo;
		assertThat(application).isNotNull();
		MeterRegistry registry = application.context().getBean(MeterRegistry.class);
		// Recorded now, within the exemplars' 70 s retention.
		Counter.builder("demo.traced.requests").register(registry).increment(3);
		Timer.builder("demo.traced.calls")
			.serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(100))
			.register(registry)
			.record(Duration.ofMillis(42));
		try (ScrapingServer prometheus = ScrapingServer.prometheus(directory, port,
				"--enable-feature=exemplar-storage")) {
			JsonNode target = prometheus.awaitTargetUp(TIMEOUT);
			assertThat(target.path("lastError").asString()).isEmpty();
			JsonNode counter = prometheus.awaitExemplars("demo_traced_requests_total", TIMEOUT);
			assertThat(exemplar(counter).path("labels").path("trace_id").asString()).isEqualTo(TRACE_ID);
			assertThat(exemplar(counter).path("labels").path("span_id").asString()).isEqualTo(SPAN_ID);
			assertThat(Double.parseDouble(exemplar(counter).path("value").asString())).isEqualTo(3.0);
			JsonNode bucket = prometheus.awaitExemplars("demo_traced_calls_seconds_bucket{le=\"0.1\"}", TIMEOUT);
			assertThat(Double.parseDouble(exemplar(bucket).path("value").asString())).isEqualTo(0.042);
			assertThat(prometheus.awaitVector("demo_traced_requests_total", TIMEOUT)
				.get(0)
				.path("value")
				.get(1)
				.asString()).isEqualTo("3");
		}
		// Served by the direct path: no scrape went to the reference path whole.
		assertThat(registry.get("leanscrape.fallbacks").tag("scope", "scrape").functionCounter().count()).isZero();
		assertThat(
				registry.get("leanscrape.scrapes").tag("format", "openmetrics").tag("outcome", "ok").counter().count())
			.isPositive();
	}

	private static JsonNode exemplar(JsonNode series) {
		return series.get(0).path("exemplars").get(0);
	}

	/**
	 * A tracer's span context, always sampled, as Spring Boot's tracing
	 * auto-configuration would provide from Micrometer Tracing.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Tracing {

		@Bean
		SpanContext spanContext() {
			return new SpanContext() {

				@Override
				public String getCurrentTraceId() {
					return TRACE_ID;
				}

				@Override
				public String getCurrentSpanId() {
					return SPAN_ID;
				}

				@Override
				public boolean isCurrentSpanSampled() {
					return true;
				}

				@Override
				public void markCurrentSpanAsExemplar() {
				}

			};
		}

	}

}
