package io.github.leanscrape.recording.reactive;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.MixedTraffic;
import io.github.leanscrape.recording.RecordingTestApplication;
import io.github.leanscrape.recording.servlet.RecordingDifferentialTests;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Hooks;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * As {@link RecordingDifferentialTests}, on Spring WebFlux and Reactor Netty: an
 * application with the starter as it comes and one with Spring Boot's defaults
 * ({@code leanscrape.recording.enabled=false}) receive the same mixed traffic over real
 * HTTP, a client that aborts its connection among it; their {@code http_server_requests*}
 * series must be the same (byte for byte with a frozen clock, timings masked without).
 */
class ReactiveRecordingDifferentialTests {

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/** Their bodies hold a time and a request id: their statuses are compared. */
	private static final Set<String> ERRORS = Set.of("/boom", "/unavailable", "/missing");

	private final MixedTraffic traffic = new MixedTraffic();

	@ParameterizedTest(name = "frozen clock: {0}, long task timers: {1}")
	@CsvSource({ "true, true", "true, false", "false, true", "false, false" })
	void sameTrafficGivesTheSameSeriesAsSpringBootsDefaults(boolean frozenClock, boolean longTaskTimers)
			throws Exception {
		List<String> properties = new ArrayList<>(
				List.of("management.metrics.distribution.percentiles-histogram.http.server.requests=true",
						"test.frozen-clock=" + frozenClock));
		if (!longTaskTimers) {
			properties.add("management.metrics.observations.ignored-meters=long-task-timer");
		}
		List<String> referenceProperties = new ArrayList<>(properties);
		referenceProperties.add("leanscrape.recording.enabled=false");
		try (ConfigurableApplicationContext reference = ReactiveRecordingTestApplication
			.start(referenceProperties.toArray(String[]::new));
				ConfigurableApplicationContext leanscrape = ReactiveRecordingTestApplication
					.start(properties.toArray(String[]::new))) {
			assertThat(reference.getBeanProvider(CachingMeterObservationHandler.class).getIfAvailable()).isNull();
			assertThat(
					reference.getBeanProvider(CachingReactiveServerRequestObservationConvention.class).getIfAvailable())
				.isNull();
			CachingMeterObservationHandler handler = leanscrape.getBean(CachingMeterObservationHandler.class);
			CachingReactiveServerRequestObservationConvention convention = leanscrape
				.getBean(CachingReactiveServerRequestObservationConvention.class);
			ServerRequestRecordingWebHandler recording = ReactiveRecordingTestApplication
				.recordingWebHandler(leanscrape);
			assertThat(recording).isNotNull();
			assertThat(recording.isBypassingObservations()).isTrue();
			assertThat(ReactiveRecordingTestApplication.recordingWebHandler(reference)).isNull();

			MixedTraffic.Sections sections = this.traffic.driveBoth(reference, leanscrape, frozenClock);
			String referenceText = sections.referenceText();

			// The traffic reached what it was meant to reach.
			assertThat(referenceText).contains("uri=\"/items/{id}\"", "uri=\"/items/{id}/parts/{part}\"",
					"status=\"404\"", "status=\"405\"", "status=\"418\"", "status=\"302\"", "status=\"500\"",
					"method=\"POST\"", "method=\"HEAD\"", "method=\"UNKNOWN\"", "uri=\"/async\"", "uri=\"/stream\"",
					"exception=\"IllegalStateException\"", "le=\"+Inf\"");
			assertThat(referenceText.contains("http_server_requests_active_seconds")).isEqualTo(longTaskTimers);
			// Kept out of the Prometheus output by Micrometer 1.16: compared in the
			// registries.
			assertThat(RecordingDifferentialTests.tenantRequests(leanscrape))
				.isEqualTo(RecordingDifferentialTests.tenantRequests(reference))
				.isEqualTo(3);
			// Requests went around Micrometer's observation: the handler saw none of
			// them.
			assertThat(handler.cachedMeterCount()).isZero();
			assertThat(recording.cachedMeterCount()).isPositive();
			assertThat(requests(leanscrape, "direct")).isPositive();
			assertThat(requests(leanscrape, "observation")).isZero();
			// The key values at the start read Spring Boot's convention, the starter's.
			assertThat(convention.cachedCombinationCount()).isPositive();

			assertThat(sections.text()).isEqualTo(referenceText);
			assertThat(sections.openMetrics()).isEqualTo(sections.referenceOpenMetrics());
		}
	}

	/**
	 * What code running in a request can reach of its observation, without the starter
	 * and with requests recorded without Micrometer's observation, Reactor's context
	 * propagation automatic: the current observation, its key values and those of the
	 * request's context (the convention's at the start, under those added since), the
	 * parent of observations started during the request, what a decorator outside finds
	 * after it; and the series of errors (thrown, resolved by an
	 * {@code @ExceptionHandler}, a {@code ResponseStatusException}, after the response
	 * was committed), streamed bodies and a client gone before the response.
	 */
	@Test
	void whatARequestReachesOfItsObservationIsAsWithSpringBootsDefaults() throws Exception {
		try (ConfigurableApplicationContext reference = ReactiveRecordingTestApplication.start(
				"leanscrape.recording.enabled=false", "spring.reactor.context-propagation=auto",
				"test.frozen-clock=true");
				ConfigurableApplicationContext leanscrape = ReactiveRecordingTestApplication
					.start("spring.reactor.context-propagation=auto", "test.frozen-clock=true")) {
			ServerRequestRecordingWebHandler recording = ReactiveRecordingTestApplication
				.recordingWebHandler(leanscrape);
			assertThat(recording).isNotNull();
			assertThat(recording.isBypassingObservations()).isTrue();
			int requests = 0;
			for (String path : List.of("/current", "/nested", "/nested/reactive", "/keyvalues", "/teapot/keyvalues",
					"/hello", "/items/7", "/teapot", "/handled", "/flux", "/boom", "/unavailable", "/missing")) {
				for (int i = 0; i < 2; i++) {
					assertThat(exchange(leanscrape, path)).as(path).isEqualTo(exchange(reference, path));
					requests++;
				}
			}
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				assertThat(exchange(context, "/current")).isEqualTo("200 http.server.requests true");
				assertThat(exchange(context, "/nested")).isEqualTo("200 http.server.requests, current: nested");
				assertThat(exchange(context, "/nested/reactive")).startsWith("200 http.server.requests")
					.contains("GET");
				assertThat(exchange(context, "/keyvalues")).contains("READ", "UNKNOWN", "/keyvalues", "GET");
				assertThat(exchange(context, "/teapot/keyvalues")).contains("status=200").doesNotContain("status=418");
			}
			requests += 5;
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				brokenStream(context);
				goneBeforeTheResponse(context);
			}
			requests += 2;
			Map<String, String> afterRequests = leanscrape.getBean(ReactiveRecordingTestApplication.AfterRequests.class)
				.found();
			assertThat(afterRequests).as("what a decorator outside finds after a request")
				.isEqualTo(reference.getBean(ReactiveRecordingTestApplication.AfterRequests.class).found());
			assertThat(afterRequests.get("/items/7")).contains("/items/{id}", "http get /items/{id}");
			assertThat(afterRequests.get("/unavailable")).contains("ResponseStatusException", "status=503");
			MixedTraffic.awaitCompletion(reference, requests);
			MixedTraffic.awaitCompletion(leanscrape, requests);
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					Timer gold = registry.find("http.server.requests").tags("plan", "gold", "uri", "/current").timer();
					assertThat(gold).as("requests tagged through the current observation").isNotNull();
					assertThat(gold.count()).isEqualTo(3);
					Timer nested = registry.find("test.nested").timer();
					assertThat(nested).as("observations started in a request").isNotNull();
					assertThat(nested.count()).isEqualTo(3);
				});
			}
			String referenceText = this.traffic.section(reference, MixedTraffic.TEXT, true);
			// Micrometer before 1.17 (Spring Boot 4.0) keeps one set of tag keys per name
			// in a Prometheus registry: the requests tagged through the current
			// observation
			// come first and take it, and the other requests' series are not exposed,
			// with or
			// without the starter. The sections are still compared below.
			boolean oneSetOfTagKeys = !referenceText.contains("uri=\"/hello\"");
			if (!oneSetOfTagKeys) {
				assertThat(referenceText).contains("exception=\"ResponseStatusException\"", "status=\"503\"",
						"status=\"409\"", "uri=\"/flux\"", "uri=\"/flux/broken\"", "uri=\"/slow\"",
						"status=\"UNKNOWN\"", "exception=\"IllegalStateException\"");
			}
			assertThat(this.traffic.section(leanscrape, MixedTraffic.TEXT, true)).isEqualTo(referenceText);
			assertThat(this.traffic.section(leanscrape, MixedTraffic.OPEN_METRICS, true))
				.isEqualTo(this.traffic.section(reference, MixedTraffic.OPEN_METRICS, true));
			assertThat(requests(leanscrape, "direct")).isEqualTo(requests + 2);
			assertThat(requests(leanscrape, "observation")).isZero();
		}
		finally {
			Hooks.disableAutomaticContextPropagation();
		}
	}

	/**
	 * The same requests with Reactor's context propagation as Spring Boot leaves it
	 * (limited): no current observation in a plain controller, with or without the
	 * starter, and the same responses and series, a body broken once committed and a
	 * client gone before the response included.
	 */
	@Test
	void withoutAutomaticPropagationARequestReachesWhatItReachesWithSpringBootsDefaults() throws Exception {
		try (ConfigurableApplicationContext reference = ReactiveRecordingTestApplication
			.start("leanscrape.recording.enabled=false", "test.frozen-clock=true");
				ConfigurableApplicationContext leanscrape = ReactiveRecordingTestApplication
					.start("test.frozen-clock=true")) {
			int requests = 0;
			for (String path : List.of("/current", "/nested", "/nested/reactive", "/keyvalues", "/teapot/keyvalues",
					"/hello", "/items/7", "/teapot", "/handled", "/flux", "/boom", "/unavailable", "/missing")) {
				assertThat(exchange(leanscrape, path)).as(path).isEqualTo(exchange(reference, path));
				requests++;
			}
			assertThat(exchange(leanscrape, "/current")).isEqualTo(exchange(reference, "/current"))
				.isEqualTo("200 none");
			requests++;
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				brokenStream(context);
				goneBeforeTheResponse(context);
			}
			requests += 2;
			MixedTraffic.awaitCompletion(reference, requests);
			MixedTraffic.awaitCompletion(leanscrape, requests);
			assertThat(this.traffic.section(leanscrape, MixedTraffic.TEXT, true))
				.isEqualTo(this.traffic.section(reference, MixedTraffic.TEXT, true));
			// And the scrape that took the section.
			assertThat(requests(leanscrape, "direct")).isEqualTo(requests + 1);
			assertThat(requests(leanscrape, "observation")).isZero();
		}
	}

	private static String exchange(ConfigurableApplicationContext context, String path) throws Exception {
		URI uri = URI.create("http://127.0.0.1:" + RecordingTestApplication.port(context) + path);
		HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
		return ERRORS.contains(path) ? String.valueOf(response.statusCode())
				: response.statusCode() + " " + response.body();
	}

	/**
	 * Ask for a body that fails once committed: the client sees the response broken.
	 */
	private static void brokenStream(ConfigurableApplicationContext context) throws Exception {
		URI uri = URI.create("http://127.0.0.1:" + RecordingTestApplication.port(context) + "/flux/broken");
		try {
			CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			// The body ends early: expected.
		}
	}

	/**
	 * Ask for a slow response and reset the connection before it comes.
	 */
	private static void goneBeforeTheResponse(ConfigurableApplicationContext context) throws Exception {
		int port = RecordingTestApplication.port(context);
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoLinger(true, 0);
			OutputStream out = socket.getOutputStream();
			out.write(
					("GET /slow HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			Thread.sleep(300);
		}
	}

	private static double requests(ConfigurableApplicationContext context, String path) {
		FunctionCounter counter = context.getBean(MeterRegistry.class)
			.find(ReactiveServerRequestRecording.REQUESTS_METER)
			.tag("path", path)
			.functionCounter();
		assertThat(counter).isNotNull();
		return counter.count();
	}

}
