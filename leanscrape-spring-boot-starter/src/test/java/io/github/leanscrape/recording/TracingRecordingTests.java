package io.github.leanscrape.recording;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import brave.handler.MutableSpan;
import io.github.leanscrape.recording.reactive.ReactiveRecordingTestApplication;
import io.github.leanscrape.recording.reactive.ServerRequestRecordingWebHandler;
import io.github.leanscrape.recording.servlet.RecordingDifferentialTests;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a real tracer (Brave, wired as Spring Boot wires it), the starter keeps each
 * request's observation and replaces only what records its meters: over real HTTP, on
 * Spring MVC and on Spring WebFlux, the spans (kinds, names, tags, errors), log
 * correlation (the trace and span ids in the MDC while a controller runs are those of the
 * request's span), the exemplars and the series are those of the same application without
 * the starter's recording.
 */
class TracingRecordingTests {

	private static final List<String> PATHS = List.of("/hello", "/items/7", "/teapot", "/boom", "/trace", "/trace",
			"/trace");

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@ParameterizedTest
	@EnumSource
	void spansLogCorrelationExemplarsAndSeriesStayTheSame(Stack stack) throws Exception {
		try (ConfigurableApplicationContext reference = stack.start("leanscrape.recording.enabled=false");
				ConfigurableApplicationContext leanscrape = stack.start()) {
			assertThat(stack.keepsObservations(leanscrape)).isTrue();
			Traffic referenceTraffic = drive(reference);
			Traffic leanscrapeTraffic = drive(leanscrape);
			assertThat(leanscrape.getBean(CachingMeterObservationHandler.class).cachedMeterCount()).isPositive();
			for (Traffic traffic : List.of(referenceTraffic, leanscrapeTraffic)) {
				Set<String> inMdc = new TreeSet<>();
				for (String[] ids : traffic.traced) {
					// traceId spanId in the MDC, then those of the span in scope.
					assertThat(ids[0]).as("trace id in the MDC").hasSize(32).isEqualTo(ids[2]);
					assertThat(ids[1]).as("span id in the MDC").hasSize(16).isEqualTo(ids[3]);
					inMdc.add(ids[0] + " " + ids[1]);
				}
				// Each request's own span, none left over from another: as many as the
				// requests, and those of the server spans that answered them.
				Set<String> traceSpans = new TreeSet<>();
				for (MutableSpan span : traffic.spans) {
					if (span.name().equals("http get /trace")) {
						assertThat(span.kind()).hasToString("SERVER");
						traceSpans.add(span.traceId() + " " + span.id());
					}
				}
				assertThat(inMdc).hasSize(traffic.traced.size()).isEqualTo(traceSpans);
			}
			assertThat(leanscrapeTraffic.describedSpans).isEqualTo(referenceTraffic.describedSpans);
			assertThat(String.join("\n", referenceTraffic.describedSpans)).contains("SERVER http get /items/{id}",
					"uri=/items/{id}", "status=418", "exception=IllegalStateException");
			assertThat(leanscrapeTraffic.exemplars).isEqualTo(referenceTraffic.exemplars);
			assertThat(referenceTraffic.exemplars).anyMatch((series) -> series.contains("uri=\"/items/{id}\""));
			assertThat(leanscrapeTraffic.counts).isEqualTo(referenceTraffic.counts);
		}
	}

	private Traffic drive(ConfigurableApplicationContext context) throws Exception {
		int port = RecordingTestApplication.port(context);
		List<String[]> traced = new ArrayList<>();
		for (String path : PATHS) {
			HttpResponse<String> response = get(port, path, "text/plain");
			if (path.equals("/trace")) {
				assertThat(response.statusCode()).isEqualTo(200);
				traced.add(response.body().split(" "));
			}
		}
		BraveTracingConfiguration.FinishedSpans finished = context
			.getBean(BraveTracingConfiguration.FinishedSpans.class);
		// A server span ends when its response has been written: after the client may
		// have read it.
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (finished.spans().size() < PATHS.size() && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		List<MutableSpan> spans = finished.spans();
		assertThat(spans).hasSize(PATHS.size());
		List<String> described = BraveTracingConfiguration.FinishedSpans.described(spans);
		// The scrapes below are requests too: read after the spans.
		String openMetrics = get(port, "/actuator/prometheus", "application/openmetrics-text;version=1.0.0").body();
		String text = get(port, "/actuator/prometheus", "text/plain;version=0.0.4").body();
		return new Traffic(traced, spans, described, seriesWithExemplars(openMetrics), counts(text));
	}

	private HttpResponse<String> get(int port, String path, String accept) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.header("Accept", accept)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * The request series whose lines carry an exemplar, without the exemplar's ids.
	 */
	private static TreeSet<String> seriesWithExemplars(String openMetrics) {
		TreeSet<String> series = new TreeSet<>();
		for (String line : openMetrics.split("\n")) {
			if (line.startsWith("http_server_requests_seconds") && line.contains(" # {")) {
				series.add(line.substring(0, line.lastIndexOf('}', line.indexOf(" # {")) + 1));
			}
		}
		return series;
	}

	/**
	 * The count of each request series: what the requests recorded, whatever they took.
	 */
	private static TreeSet<String> counts(String text) {
		TreeSet<String> counts = new TreeSet<>();
		for (String line : text.split("\n")) {
			if (line.startsWith("http_server_requests_seconds_count{") && !line.contains("/actuator/prometheus")) {
				counts.add(line);
			}
		}
		return counts;
	}

	private record Traffic(List<String[]> traced, List<MutableSpan> spans, List<String> describedSpans,
			TreeSet<String> exemplars, TreeSet<String> counts) {
	}

	enum Stack {

		MVC {

			@Override
			ConfigurableApplicationContext start(String... properties) {
				return RecordingTestApplication.start(List.of(BraveTracingConfiguration.class), properties);
			}

			@Override
			boolean keepsObservations(ConfigurableApplicationContext context) {
				ServerRequestMetricsFilter filter = RecordingDifferentialTests.directFilter(context);
				return filter == null || !filter.isBypassingObservations();
			}

		},

		WEBFLUX {

			@Override
			ConfigurableApplicationContext start(String... properties) {
				List<String> all = new ArrayList<>(List.of(properties));
				// Thread locals, the MDC included, follow the request through Reactor.
				all.add("spring.reactor.context-propagation=auto");
				return ReactiveRecordingTestApplication.start(List.of(BraveTracingConfiguration.class),
						all.toArray(String[]::new));
			}

			@Override
			boolean keepsObservations(ConfigurableApplicationContext context) {
				ServerRequestRecordingWebHandler recording = ReactiveRecordingTestApplication
					.recordingWebHandler(context);
				return recording == null || !recording.isBypassingObservations();
			}

		};

		abstract ConfigurableApplicationContext start(String... properties);

		abstract boolean keepsObservations(ConfigurableApplicationContext context);

	}

}
