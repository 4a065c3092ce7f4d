package io.github.leanscrape.recording;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.recording.servlet.RecordingDifferentialTests;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry.ObservationConfig;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.TracingAwareMeterObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's handler replaces only the metrics part: a tracer and a plain observation
 * handler registered beside it see every observation, with or without it.
 */
class OtherObservationHandlersTests {

	private final MixedTraffic traffic = new MixedTraffic();

	@ParameterizedTest(name = "direct server requests asked for: {0}")
	@ValueSource(booleans = { false, true })
	void tracingAndOtherHandlersSeeEveryObservation(boolean direct) throws Exception {
		try (ConfigurableApplicationContext reference = start("leanscrape.recording.enabled=false");
				ConfigurableApplicationContext leanscrape = start(
						"leanscrape.recording.direct-server-requests=" + direct)) {
			ServerRequestMetricsFilter filter = RecordingDifferentialTests.directFilter(leanscrape);
			assertThat(filter != null).isEqualTo(direct);
			if (filter != null) {
				// Other handlers would miss observations: the filter keeps them.
				assertThat(filter.isBypassingObservations()).isFalse();
			}
			int referenceRequests = this.traffic.drive(RecordingTestApplication.port(reference));
			int requests = this.traffic.drive(RecordingTestApplication.port(leanscrape));
			MixedTraffic.awaitCompletion(reference, referenceRequests);
			MixedTraffic.awaitCompletion(leanscrape, requests);
			for (ConfigurableApplicationContext context : List.of(reference, leanscrape)) {
				int sent = (context == reference) ? referenceRequests : requests;
				RecordingHandler recorder = context.getBean(RecordingHandler.class);
				assertThat(recorder.started("http.server.requests")).isEqualTo(sent);
				assertThat(recorder.stopped("http.server.requests")).isEqualTo(sent);
				List<SimpleSpan> spans = new ArrayList<>(context.getBean(SimpleTracer.class).getSpans());
				assertThat(spans).hasSize(sent);
				assertThat(spans).allSatisfy((span) -> assertThat(span.getEndTimestamp().toEpochMilli()).isPositive());
				// Every observation that the other handler saw stop was recorded once, in
				// the timer of the key values and error it saw.
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				recorder.timers.forEach(
						(tags, count) -> assertThat(registry.get("http.server.requests").tags(tags).timer().count())
							.as(tags.toString())
							.isEqualTo(count.get()));
			}
			assertThat(leanscrape.getBean(CachingMeterObservationHandler.class).cachedMeterCount()).isPositive();
			// The spans are named by the convention's contextual names: the same ones.
			assertThat(spanNames(leanscrape)).isEqualTo(spanNames(reference));
			assertThat(spanNames(leanscrape)).contains("http get /items/{id}", "http post /echo");
			// And carry the same tags (the convention's key values, high cardinality ones
			// included) and errors.
			assertThat(spanTags(leanscrape)).isEqualTo(spanTags(reference));
			assertThat(leanscrape.getBean(RecordingHandler.class).counts())
				.isEqualTo(reference.getBean(RecordingHandler.class).counts());
			assertThat(this.traffic.section(leanscrape, MixedTraffic.TEXT, false))
				.isEqualTo(this.traffic.section(reference, MixedTraffic.TEXT, false));
		}
	}

	private static List<String> spanNames(ConfigurableApplicationContext context) {
		List<String> names = new ArrayList<>();
		for (SimpleSpan span : context.getBean(SimpleTracer.class).getSpans()) {
			names.add(span.getName());
		}
		Collections.sort(names);
		return names;
	}

	private static List<String> spanTags(ConfigurableApplicationContext context) {
		List<String> spans = new ArrayList<>();
		for (SimpleSpan span : context.getBean(SimpleTracer.class).getSpans()) {
			Throwable error = span.getError();
			spans.add(span.getName() + " " + new TreeMap<>(span.getTags()) + " "
					+ ((error != null) ? error.getClass().getName() : "no error"));
		}
		Collections.sort(spans);
		return spans;
	}

	private static ConfigurableApplicationContext start(String... extra) {
		List<String> properties = new ArrayList<>(List.of("spring.main.web-application-type=servlet", "server.port=0",
				"spring.main.banner-mode=off", "management.endpoints.web.exposure.include=prometheus",
				"management.metrics.use-global-registry=false",
				"logging.level.org.apache.catalina.core.ContainerBase=off"));
		properties.addAll(List.of(extra));
		return new SpringApplicationBuilder(RecordingTestApplication.class, TracingConfiguration.class)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	static class TracingConfiguration {

		@Bean
		SimpleTracer tracer() {
			return new SimpleTracer();
		}

		@Bean
		DefaultTracingObservationHandler defaultTracingObservationHandler(Tracer tracer) {
			return new DefaultTracingObservationHandler(tracer);
		}

		@Bean
		ObservationHandlerGroup tracingAndMeterObservationHandlerGroup(Tracer tracer) {
			return new TracingAndMeterObservationHandlerGroup(tracer);
		}

		@Bean
		RecordingHandler recordingHandler() {
			return new RecordingHandler();
		}

	}

	/**
	 * What Spring Boot's tracing auto-configuration registers when a tracer is present
	 * (its {@code TracingAndMeterObservationHandlerGroup}): the tracing handlers in one
	 * first-matching composite, and every meter observation handler wrapped in a
	 * {@link TracingAwareMeterObservationHandler} in another. Spring Boot's tracing
	 * module is not on the test class path: its no-op tracer would add tracing to every
	 * test application.
	 */
	static final class TracingAndMeterObservationHandlerGroup implements ObservationHandlerGroup {

		private final Tracer tracer;

		TracingAndMeterObservationHandlerGroup(Tracer tracer) {
			this.tracer = tracer;
		}

		@Override
		public boolean isMember(ObservationHandler<?> handler) {
			return handler instanceof MeterObservationHandler<?> || handler instanceof TracingObservationHandler<?>;
		}

		@Override
		public int compareTo(ObservationHandlerGroup other) {
			if (other instanceof TracingAndMeterObservationHandlerGroup) {
				return 0;
			}
			return MeterObservationHandler.class.isAssignableFrom(other.handlerType()) ? -1 : 1;
		}

		@Override
		@SuppressWarnings({ "rawtypes", "unchecked" })
		public void registerMembers(ObservationConfig config, List<ObservationHandler<?>> members) {
			List<ObservationHandler<?>> tracing = new ArrayList<>();
			List<ObservationHandler<?>> metrics = new ArrayList<>();
			for (ObservationHandler<?> member : members) {
				if (member instanceof MeterObservationHandler meter
						&& !(member instanceof TracingAwareMeterObservationHandler<?>)) {
					metrics.add(new TracingAwareMeterObservationHandler<>(meter, this.tracer));
				}
				else {
					tracing.add(member);
				}
			}
			config.observationHandler(new FirstMatchingCompositeObservationHandler(tracing));
			config.observationHandler(new FirstMatchingCompositeObservationHandler(metrics));
		}

		@Override
		public Class<?> handlerType() {
			return TracingObservationHandler.class;
		}

	}

	/**
	 * A handler that is neither for tracing nor for metrics: counts starts and stops, and
	 * the stops per key values and error, as a timer would.
	 */
	static final class RecordingHandler implements ObservationHandler<Observation.Context> {

		private final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> stops = new ConcurrentHashMap<>();

		final Map<Tags, AtomicLong> timers = new ConcurrentHashMap<>();

		@Override
		public void onStart(Observation.Context context) {
			this.starts.computeIfAbsent(context.getName(), (name) -> new AtomicInteger()).incrementAndGet();
		}

		@Override
		public void onStop(Observation.Context context) {
			this.stops.computeIfAbsent(context.getName(), (name) -> new AtomicInteger()).incrementAndGet();
			List<Tag> tags = new ArrayList<>();
			for (KeyValue keyValue : context.getLowCardinalityKeyValues()) {
				tags.add(Tag.of(keyValue.getKey(), keyValue.getValue()));
			}
			Throwable error = context.getError();
			tags.add(Tag.of("error", (error != null) ? error.getClass().getSimpleName() : "none"));
			this.timers.computeIfAbsent(Tags.of(tags), (key) -> new AtomicLong()).incrementAndGet();
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

		Map<Tags, Long> counts() {
			Map<Tags, Long> counts = new HashMap<>();
			this.timers.forEach((tags, count) -> counts.put(tags, count.get()));
			return counts;
		}

		int started(String name) {
			AtomicInteger count = this.starts.get(name);
			return (count != null) ? count.get() : 0;
		}

		int stopped(String name) {
			AtomicInteger count = this.stops.get(name);
			return (count != null) ? count.get() : 0;
		}

	}

}
