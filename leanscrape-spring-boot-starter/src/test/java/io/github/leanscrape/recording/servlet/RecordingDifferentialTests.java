package io.github.leanscrape.recording.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.MixedTraffic;
import io.github.leanscrape.recording.RecordingTestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two applications in one JVM, one recording with the starter's handler and one with
 * Spring Boot's default handler ({@code leanscrape.recording.enabled=false}), receive the
 * same mixed traffic over real HTTP; their {@code http_server_requests*} series in
 * {@code /actuator/prometheus} must be the same.
 * <p>
 * What is legitimately different between two runs is time. With the system clock the sums
 * (of gauge histograms too), maxima, created timestamps and the buckets below
 * {@code +Inf} are timings and are masked; the series, labels, HELP and TYPE lines,
 * counts, active counts and bucket layout are compared exactly. With a frozen clock every
 * duration is zero and nothing is masked: the sections are compared byte for byte.
 */
public class RecordingDifferentialTests {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private final MixedTraffic traffic = new MixedTraffic();

	public static Stream<Arguments> scenarios() {
		List<Arguments> scenarios = new ArrayList<>();
		for (boolean direct : new boolean[] { false, true }) {
			for (boolean frozenClock : new boolean[] { false, true }) {
				for (boolean longTaskTimers : new boolean[] { true, false }) {
					scenarios.add(Arguments.of(frozenClock, longTaskTimers, direct));
				}
			}
		}
		return scenarios.stream();
	}

	@ParameterizedTest(name = "frozen clock: {0}, long task timers: {1}, direct server requests: {2}")
	@MethodSource("scenarios")
	void sameTrafficGivesTheSameSeriesAsTheDefaultHandler(boolean frozenClock, boolean longTaskTimers, boolean direct)
			throws Exception {
		List<String> properties = new ArrayList<>(
				List.of("management.metrics.distribution.percentiles-histogram.http.server.requests=true",
						"test.frozen-clock=" + frozenClock));
		if (!longTaskTimers) {
			properties.add("management.metrics.observations.ignored-meters=long-task-timer");
		}
		List<String> referenceProperties = new ArrayList<>(properties);
		referenceProperties.add("leanscrape.recording.enabled=false");
		// Asked of both: without the starter's handler it must change nothing.
		properties.add("leanscrape.recording.direct-server-requests=" + direct);
		referenceProperties.add("leanscrape.recording.direct-server-requests=" + direct);
		try (ConfigurableApplicationContext reference = RecordingTestApplication
			.start(referenceProperties.toArray(String[]::new));
				ConfigurableApplicationContext leanscrape = RecordingTestApplication
					.start(properties.toArray(String[]::new))) {
			assertThat(reference.getBeanProvider(CachingMeterObservationHandler.class).getIfAvailable()).isNull();
			assertThat(reference.getBeanProvider(CachingServerRequestObservationConvention.class).getIfAvailable())
				.isNull();
			CachingMeterObservationHandler handler = leanscrape.getBean(CachingMeterObservationHandler.class);
			CachingServerRequestObservationConvention convention = leanscrape
				.getBean(CachingServerRequestObservationConvention.class);
			ServerRequestMetricsFilter directFilter = directFilter(leanscrape);
			assertThat(directFilter != null).isEqualTo(direct);
			assertThat(directFilter(reference)).isNull();

			MixedTraffic.Sections sections = this.traffic.driveBoth(reference, leanscrape, frozenClock);
			String referenceText = sections.referenceText();

			// The traffic reached what it was meant to reach.
			assertThat(referenceText).contains("uri=\"/items/{id}\"", "uri=\"/items/{id}/parts/{part}\"",
					"status=\"404\"", "status=\"405\"", "status=\"418\"", "status=\"302\"",
					"exception=\"IllegalStateException\"", "error=\"IllegalStateException\"", "method=\"POST\"",
					"method=\"HEAD\"", "uri=\"/async\"", "uri=\"/stream\"", "le=\"+Inf\"");
			assertThat(referenceText.contains("http_server_requests_active_seconds")).isEqualTo(longTaskTimers);
			assertThat(referenceText).contains("method=\"UNKNOWN\"");
			// Micrometer 1.16 keeps a meter with a tag key of its own out of the
			// Prometheus output (1.17 exports it): its count is compared in the
			// registries.
			assertThat(tenantRequests(leanscrape)).isEqualTo(tenantRequests(reference)).isEqualTo(3);
			if (direct) {
				assertThat(directFilter.isBypassingObservations()).isTrue();
				assertThat(directFilter.cachedMeterCount()).isPositive();
			}
			else {
				assertThat(handler.cachedMeterCount()).isPositive();
				// Spring Boot's request observation filter took the starter's convention.
				assertThat(convention.cachedCombinationCount()).isPositive();
			}

			assertThat(sections.text()).isEqualTo(referenceText);
			assertThat(sections.openMetrics()).isEqualTo(sections.referenceOpenMetrics());
		}
	}

	/**
	 * What code running in a request can reach of its observation, without the starter
	 * and with requests recorded without Micrometer's observation: the current
	 * observation, its key values and those of the request's context (the convention's at
	 * the start, under those added since), the parent of an observation started during
	 * the request.
	 */
	@Test
	public void theRequestsObservationIsCurrentAndParentOfThoseStartedInIt() throws Exception {
		try (ConfigurableApplicationContext reference = RecordingTestApplication
			.start("leanscrape.recording.enabled=false");
				ConfigurableApplicationContext leanscrape = RecordingTestApplication
					.start("leanscrape.recording.direct-server-requests=true")) {
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				// Error bodies hold a time: sent, not compared.
				body(context, "/boom");
				body(context, "/missing");
			}
			for (String path : List.of("/current", "/nested", "/keyvalues", "/teapot/keyvalues", "/hello", "/items/7",
					"/teapot")) {
				for (int i = 0; i < 3; i++) {
					assertThat(body(leanscrape, path)).as(path).isEqualTo(body(reference, path));
				}
			}
			ServerRequestMetricsFilter directFilter = directFilter(leanscrape);
			assertThat(directFilter).isNotNull();
			assertThat(directFilter.isBypassingObservations()).isTrue();
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				assertThat(body(context, "/current")).isEqualTo("http.server.requests true");
				assertThat(body(context, "/nested")).isEqualTo("http.server.requests, current: nested");
				assertThat(body(context, "/keyvalues")).contains("READ", "UNKNOWN", "/keyvalues", "GET");
				assertThat(body(context, "/teapot/keyvalues")).contains("status=200").doesNotContain("418");
			}
			Map<String, String> afterRequests = leanscrape.getBean(RecordingTestApplication.AfterRequests.class)
				.found();
			assertThat(afterRequests).as("what code outside the filter finds after a request")
				.isEqualTo(reference.getBean(RecordingTestApplication.AfterRequests.class).found());
			assertThat(afterRequests.get("/items/7")).contains("/items/{id}", "http get /items/{id}", "current: null");
			assertThat(afterRequests.get("/boom")).contains("IllegalStateException", "status=500");
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				// A request is recorded once its response is sent: the last may still be.
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					Timer gold = registry.find("http.server.requests").tags("plan", "gold", "uri", "/current").timer();
					assertThat(gold).as("requests tagged through the current observation").isNotNull();
					assertThat(gold.count()).isEqualTo(4);
					Timer nested = registry.find("test.nested").timer();
					assertThat(nested).as("observations started in a request").isNotNull();
					assertThat(nested.count()).isEqualTo(4);
				});
			}
		}
	}

	private static String body(ConfigurableApplicationContext context, String path) throws Exception {
		URI uri = URI.create("http://127.0.0.1:" + RecordingTestApplication.port(context) + path);
		return CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
	}

	public static long tenantRequests(ConfigurableApplicationContext context) {
		Timer timer = context.getBean(MeterRegistry.class).find("http.server.requests").tag("tenant", "acme").timer();
		return (timer != null) ? timer.count() : 0;
	}

	public static @Nullable ServerRequestMetricsFilter directFilter(ConfigurableApplicationContext context) {
		for (FilterRegistrationBean<?> registration : context.getBeansOfType(FilterRegistrationBean.class).values()) {
			if (registration.getFilter() instanceof ServerRequestMetricsFilter filter) {
				return filter;
			}
		}
		return null;
	}

}
