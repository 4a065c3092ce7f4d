package io.github.leanscrape.recording.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RecordedRequestMono} and {@link ReactiveRequestObservation}: the
 * request's signals through the starter's subscriber, recorded once per subscription, and
 * a failure to record that never holds the request up.
 */
class RecordedRequestMonoTests {

	/** A request held up fails its test rather than hang it. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final SimpleMeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final List<Throwable> dropped = new CopyOnWriteArrayList<>();

	@AfterEach
	void resetHooks() {
		Hooks.resetOnErrorDropped();
	}

	@Test
	void aRequestSubscribedTwiceIsRecordedTwice() {
		HttpHandler handler = recording(answering(HttpStatus.OK));
		Mono<Void> handled = handler.handle(MockServerHttpRequest.get("/items").build(), new MockServerHttpResponse());
		handled.block(TIMEOUT);
		handled.block(TIMEOUT);
		assertThat(timer("200").count()).isEqualTo(2);
		assertThat(this.meterRegistry.get("http.server.requests.active").longTaskTimer().activeTasks()).isZero();
	}

	@Test
	void aCancelledRequestIsRecordedOnceAsAborted() {
		HttpHandler handler = recording((exchange) -> {
			pattern(exchange.getAttributes());
			return Mono.never();
		});
		Disposable subscription = handler
			.handle(MockServerHttpRequest.get("/items").build(), new MockServerHttpResponse())
			.subscribe();
		assertThat(this.meterRegistry.get("http.server.requests.active").longTaskTimer().activeTasks()).isOne();
		subscription.dispose();
		subscription.dispose();
		Timer timer = this.meterRegistry.get("http.server.requests").tag("outcome", "UNKNOWN").timer();
		assertThat(timer.count()).isOne();
		assertThat(this.meterRegistry.get("http.server.requests.active").longTaskTimer().activeTasks()).isZero();
	}

	@Test
	void aFailureToRecordTheEndIsDroppedAndTheResponseCompleted() {
		Hooks.onErrorDropped(this.dropped::add);
		this.meterRegistry.config().meterFilter(throwingFor("http.server.requests"));
		HttpHandler handler = recording(answering(HttpStatus.OK));
		MockServerHttpResponse response = new MockServerHttpResponse();
		handler.handle(MockServerHttpRequest.get("/items").build(), response).block(TIMEOUT);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(response.isCommitted()).isTrue();
		assertThat(this.dropped).hasSize(1);
		assertThat(this.dropped.get(0)).isInstanceOf(IllegalStateException.class).hasMessage("no http.server.requests");
	}

	@Test
	void aFailureToStartRecordingFailsTheRequestAsTheAdaptersObservationWould() {
		this.meterRegistry.config().meterFilter(throwingFor("http.server.requests.active"));
		HttpHandler handler = recording(answering(HttpStatus.OK));
		MockServerHttpResponse response = new MockServerHttpResponse();
		handler.handle(MockServerHttpRequest.get("/items").build(), response).block(TIMEOUT);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
	}

	private HttpHandler recording(WebHandler webHandler) {
		CachingMeterObservationHandler meterHandler = new CachingMeterObservationHandler(this.meterRegistry, 10);
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		observationRegistry.observationConfig().observationHandler(meterHandler);
		HttpHandler built = WebHttpHandlerBuilder.webHandler(webHandler)
			.observationRegistry(observationRegistry)
			.observationConvention(new CachingReactiveServerRequestObservationConvention("http.server.requests", 10))
			.build();
		HttpHandler recording = new ReactiveServerRequestRecording(meterHandler, this.meterRegistry, true, 10)
			.apply(built);
		assertThat(((ServerRequestRecordingWebHandler) ((HttpWebHandlerAdapter) recording).getDelegate())
			.isBypassingObservations()).isTrue();
		return recording;
	}

	private static WebHandler answering(HttpStatus status) {
		return (exchange) -> {
			pattern(exchange.getAttributes());
			exchange.getResponse().setStatusCode(status);
			return exchange.getResponse().setComplete();
		};
	}

	private static void pattern(java.util.Map<String, Object> attributes) {
		ServerRequestObservationContext.findCurrent(attributes)
			.ifPresent((context) -> context.setPathPattern("/items"));
	}

	private Timer timer(String status) {
		return this.meterRegistry.get("http.server.requests").tag("status", status).tag("uri", "/items").timer();
	}

	private static MeterFilter throwingFor(String name) {
		return new MeterFilter() {

			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().equals(name)) {
					throw new IllegalStateException("no " + name);
				}
				return id;
			}

		};
	}

}
