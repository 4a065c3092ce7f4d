package io.github.leanscrape.recording.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.github.leanscrape.recording.RecordingTestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationPredicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When {@code leanscrape.recording.direct-server-requests} records without observations,
 * and when it keeps them; and what its cache keeps, over real HTTP on Tomcat.
 */
class ServerRequestMetricsFilterTests {

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void recordsDirectlyWhenOnlyTheStartersHandlerWouldSeeTheObservation() throws Exception {
		try (ConfigurableApplicationContext context = start(null)) {
			ServerRequestMetricsFilter filter = filter(context);
			get(context, "/hello");
			assertThat(filter.isBypassingObservations()).isTrue();
			awaitTimerCount(context, "/hello", 1);
			get(context, "/hello");
			awaitTimerCount(context, "/hello", 2);
			assertThat(requestsByPath(context, "direct")).isEqualTo(2);
			assertThat(requestsByPath(context, "observation")).isZero();
		}
	}

	@Test
	void keepsObservationsForAnotherHandler() throws Exception {
		try (ConfigurableApplicationContext context = start(CountingHandlerConfiguration.class)) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isFalse();
			awaitTimerCount(context, "/hello", 1);
			assertThat(context.getBean(CountingHandler.class).stopped.get()).isEqualTo(1);
			assertThat(requestsByPath(context, "observation")).isEqualTo(1);
			assertThat(requestsByPath(context, "direct")).isZero();
		}
	}

	@Test
	void keepsObservationsForAPredicate() throws Exception {
		try (ConfigurableApplicationContext context = start(PredicateConfiguration.class)) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isFalse();
			awaitTimerCount(context, "/hello", 1);
		}
	}

	@Test
	void keepsObservationsForACustomConvention() throws Exception {
		try (ConfigurableApplicationContext context = start(CustomConventionConfiguration.class)) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isFalse();
			awaitCount(() -> countNow(context, "custom.requests", "/hello"), 1);
		}
	}

	@Test
	void recordsDirectlyUnderTheConfiguredName() throws Exception {
		try (ConfigurableApplicationContext context = start(null,
				"management.observations.http.server.requests.name=web.requests")) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isTrue();
			awaitCount(() -> countNow(context, "web.requests", "/hello"), 1);
		}
	}

	@Test
	void keepsObservationsForCommonKeyValues() throws Exception {
		try (ConfigurableApplicationContext context = start(null, "management.observations.key-values.region=eu")) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isFalse();
			awaitCount(() -> {
				Timer timer = context.getBean(MeterRegistry.class)
					.find("http.server.requests")
					.tag("uri", "/hello")
					.tag("region", "eu")
					.timer();
				return (timer != null) ? timer.count() : 0;
			}, 1);
		}
	}

	@Test
	void recordsNothingWhenTheObservationIsDisabled() throws Exception {
		try (ConfigurableApplicationContext context = start(null,
				"management.observations.enable.http.server.requests=false")) {
			get(context, "/hello");
			assertThat(filter(context).isBypassingObservations()).isFalse();
			// A recorded request would have registered its long task timer before its
			// response.
			assertThat(context.getBean(MeterRegistry.class).find("http.server.requests").timers()).isEmpty();
			assertThat(context.getBean(MeterRegistry.class).find("http.server.requests.active").longTaskTimers())
				.isEmpty();
		}
	}

	@Test
	void deniedMetersAreNeverCached() throws Exception {
		try (ConfigurableApplicationContext context = start(null, "management.metrics.web.server.max-uri-tags=1",
				"management.metrics.observations.ignored-meters=long-task-timer")) {
			ServerRequestMetricsFilter filter = filter(context);
			for (int i = 0; i < 3; i++) {
				get(context, "/hello");
				get(context, "/items/" + i);
			}
			assertThat(filter.isBypassingObservations()).isTrue();
			// Spring Boot's uri tag limit keeps the first uri and denies the second.
			awaitTimerCount(context, "/hello", 3);
			assertThat(countNow(context, "http.server.requests", "/items/{id}")).isZero();
			assertThat(filter.cachedMeterCount()).isEqualTo(1);
		}
	}

	@Test
	void aFullCacheFallsBackToTheRegistry() throws Exception {
		try (ConfigurableApplicationContext context = start(null, "leanscrape.recording.max-cached-meters=1",
				"management.metrics.observations.ignored-meters=long-task-timer")) {
			ServerRequestMetricsFilter filter = filter(context);
			for (int i = 0; i < 3; i++) {
				get(context, "/hello");
				get(context, "/items/" + i);
				get(context, "/teapot");
			}
			assertThat(filter.cachedMeterCount()).isEqualTo(1);
			awaitTimerCount(context, "/hello", 3);
			awaitTimerCount(context, "/items/{id}", 3);
			awaitTimerCount(context, "/teapot", 3);
		}
	}

	@Test
	void aRemovedMeterLeavesTheCache() throws Exception {
		try (ConfigurableApplicationContext context = start(null,
				"management.metrics.observations.ignored-meters=long-task-timer")) {
			ServerRequestMetricsFilter filter = filter(context);
			get(context, "/hello");
			awaitTimerCount(context, "/hello", 1);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Timer first = registry.get("http.server.requests").tag("uri", "/hello").timer();
			assertThat(filter.cachedMeterCount()).isEqualTo(1);
			registry.remove(first);
			assertThat(filter.cachedMeterCount()).isZero();
			get(context, "/hello");
			awaitTimerCount(context, "/hello", 1);
			Timer second = registry.get("http.server.requests").tag("uri", "/hello").timer();
			assertThat(second).isNotSameAs(first);
			assertThat(second.count()).isEqualTo(1);
			assertThat(filter.cachedMeterCount()).isEqualTo(1);
		}
	}

	private static ServerRequestMetricsFilter filter(ConfigurableApplicationContext context) {
		ServerRequestMetricsFilter filter = RecordingDifferentialTests.directFilter(context);
		assertThat(filter).isNotNull();
		return filter;
	}

	private void get(ConfigurableApplicationContext context, String path) throws Exception {
		HttpResponse<String> response = this.client.send(
				HttpRequest.newBuilder(URI.create("http://localhost:" + RecordingTestApplication.port(context) + path))
					.timeout(Duration.ofSeconds(30))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isLessThan(500);
	}

	/**
	 * Wait until a uri's timers have counted the expected requests: a response can reach
	 * the client before the filter that records it returns.
	 */
	private static void awaitTimerCount(ConfigurableApplicationContext context, String uri, long expected) {
		awaitCount(() -> countNow(context, "http.server.requests", uri), expected);
	}

	private static void awaitCount(LongSupplier count, long expected) {
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(count.getAsLong()).isEqualTo(expected));
	}

	private static double requestsByPath(ConfigurableApplicationContext context, String path) {
		return context.getBean(MeterRegistry.class)
			.get(ServerRequestMetricsFilter.REQUESTS_METER)
			.tag("path", path)
			.functionCounter()
			.count();
	}

	private static long countNow(ConfigurableApplicationContext context, String name, String uri) {
		long count = 0;
		for (Timer timer : context.getBean(MeterRegistry.class).find(name).tag("uri", uri).timers()) {
			count += timer.count();
		}
		return count;
	}

	private static ConfigurableApplicationContext start(@Nullable Class<?> configuration, String... extra) {
		List<String> properties = new ArrayList<>(List.of("spring.main.web-application-type=servlet", "server.port=0",
				"spring.main.banner-mode=off", "management.metrics.use-global-registry=false",
				"logging.level.org.apache.catalina.core.ContainerBase=off",
				"leanscrape.recording.direct-server-requests=true"));
		properties.addAll(List.of(extra));
		Class<?>[] sources = (configuration != null) ? new Class<?>[] { RecordingTestApplication.class, configuration }
				: new Class<?>[] { RecordingTestApplication.class };
		return new SpringApplicationBuilder(sources).properties(properties.toArray(String[]::new)).run();
	}

	@Configuration(proxyBeanMethods = false)
	static class CountingHandlerConfiguration {

		@Bean
		CountingHandler countingHandler() {
			return new CountingHandler();
		}

	}

	static final class CountingHandler implements ObservationHandler<Observation.Context> {

		final AtomicInteger stopped = new AtomicInteger();

		@Override
		public void onStop(Observation.Context context) {
			if ("http.server.requests".equals(context.getName())) {
				this.stopped.incrementAndGet();
			}
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PredicateConfiguration {

		@Bean
		ObservationPredicate everythingPredicate() {
			return (name, context) -> true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomConventionConfiguration {

		@Bean
		ServerRequestObservationConvention customConvention() {
			// A subclass may derive other key values: only Spring's own class is known.
			return new DefaultServerRequestObservationConvention("custom.requests") {
			};
		}

	}

}
