package io.github.leanscrape.recording;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * As {@link RecordingDifferentialTests}, on Spring WebFlux and Reactor Netty: an
 * application with the starter as it comes and one with Spring Boot's defaults
 * ({@code leanscrape.recording.enabled=false}) receive the same mixed traffic over real
 * HTTP, a client that aborts its connection among it; their {@code http_server_requests*}
 * series must be the same (byte for byte with a frozen clock, timings masked without).
 */
class ReactiveRecordingDifferentialTests {

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
			assertThat(handler.cachedMeterCount()).isPositive();
			// Spring Boot's HTTP handler took the starter's convention.
			assertThat(convention.cachedCombinationCount()).isPositive();

			assertThat(sections.text()).isEqualTo(referenceText);
			assertThat(sections.openMetrics()).isEqualTo(sections.referenceOpenMetrics());
		}
	}

}
