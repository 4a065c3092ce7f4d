package io.github.leanscrape.recording.reactive;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * The endpoints of {@link RecordingTestApplication} on Spring WebFlux and Reactor Netty:
 * plain, path variables, a POST, a custom status, a redirect, an exception, a deferred
 * result and a body streamed until the client goes away; and endpoints that read what a
 * request can reach of its observation.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@RestController
public class ReactiveRecordingTestApplication {

	private static final String CHUNK = "x".repeat(8192);

	/** Asked for lazily: the registry's handlers need this class's clock. */
	private final ObjectProvider<ObservationRegistry> observationRegistry;

	public ReactiveRecordingTestApplication(ObjectProvider<ObservationRegistry> observationRegistry) {
		this.observationRegistry = observationRegistry;
	}

	@GetMapping("/hello")
	public String hello() {
		return "hello";
	}

	@PostMapping("/echo")
	public Mono<String> echo(@RequestBody Mono<String> body) {
		return body;
	}

	@GetMapping("/items/{id}")
	public String item(@PathVariable String id) {
		return "item " + id;
	}

	@GetMapping("/items/{id}/parts/{part}")
	public String part(@PathVariable String id, @PathVariable String part) {
		return "item " + id + " part " + part;
	}

	@GetMapping("/teapot")
	public ResponseEntity<String> teapot() {
		return ResponseEntity.status(418).body("short and stout");
	}

	@GetMapping("/redirect")
	public ResponseEntity<Void> redirect() {
		return ResponseEntity.status(302).location(URI.create("/hello")).build();
	}

	/**
	 * Add a key value of its own to the request's observation context, as Spring invites
	 * web frameworks and applications to.
	 */
	@GetMapping("/tenant")
	public String tenant(ServerWebExchange exchange) {
		ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.ifPresent((context) -> context.addLowCardinalityKeyValue(KeyValue.of("tenant", "acme")));
		return "acme";
	}

	@GetMapping("/boom")
	public String boom() {
		throw new IllegalStateException("boom");
	}

	/**
	 * A result produced when subscribed to, on the connection's event loop. Not from a
	 * timer thread ({@code Mono.delay}): with the JDK 25 HTTP client, the request after
	 * such a response on the same connection sometimes got no answer from Reactor Netty,
	 * with and without the starter.
	 */
	@GetMapping("/async")
	public Mono<String> async() {
		return Mono.fromSupplier(() -> "later");
	}

	/**
	 * Write until the client has gone: the connection closes under the stream.
	 */
	@GetMapping(path = "/stream", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	public Flux<String> stream() {
		return Flux.range(0, 100_000).map((i) -> CHUNK);
	}

	/**
	 * Add a key value through the current observation, as code that knows nothing of the
	 * request would; found with Reactor's automatic context propagation.
	 */
	@GetMapping("/current")
	public String current() {
		Observation current = this.observationRegistry.getObject().getCurrentObservation();
		if (current == null) {
			return "none";
		}
		current.lowCardinalityKeyValue("plan", "gold");
		return current.getContextView().getName() + " "
				+ (current.getContextView() instanceof ServerRequestObservationContext);
	}

	/**
	 * Read the key values of the request's observation context while the request is
	 * handled: those of the convention at the start, under one added since.
	 */
	@GetMapping("/keyvalues")
	public String keyValues(ServerWebExchange exchange) {
		ServerRequestObservationContext context = ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.orElseThrow();
		context.addLowCardinalityKeyValue(KeyValue.of("outcome", "READ"));
		Observation current = this.observationRegistry.getObject().getCurrentObservation();
		KeyValue method = (current != null) ? current.getContextView().getLowCardinalityKeyValue("method") : null;
		return context.getLowCardinalityKeyValues() + " " + context.getHighCardinalityKeyValues() + " " + method
				+ " parent " + context.getParentObservation();
	}

	/**
	 * Read the key values after setting a status: those of the start keep the status the
	 * response had then.
	 */
	@GetMapping("/teapot/keyvalues")
	public String teapotKeyValues(ServerWebExchange exchange) {
		exchange.getResponse().setStatusCode(HttpStatus.I_AM_A_TEAPOT);
		return ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.orElseThrow()
			.getLowCardinalityKeyValues()
			.toString();
	}

	/**
	 * Observe something during the request: its parent is the request's observation.
	 */
	@GetMapping("/nested")
	public String nested() {
		Observation nested = Observation.createNotStarted("test.nested", this.observationRegistry.getObject());
		return nested.observe(() -> {
			ObservationView parent = nested.getContextView().getParentObservation();
			Observation current = this.observationRegistry.getObject().getCurrentObservation();
			return ((parent != null) ? parent.getContextView().getName() : "no parent") + ", current: "
					+ ((current == nested) ? "nested" : "other");
		});
	}

	/**
	 * Observe something in a Reactor pipeline: its parent is the observation in the
	 * Reactor context.
	 */
	@GetMapping("/nested/reactive")
	public Mono<String> nestedReactive() {
		return Mono.deferContextual((contextView) -> {
			@Nullable Observation inContext = contextView.getOrDefault("micrometer.observation", null);
			Observation nested = Observation
				.createNotStarted("test.nested.reactive", this.observationRegistry.getObject())
				.parentObservation(inContext);
			return Mono.fromSupplier(() -> {
				ObservationView parent = nested.getContextView().getParentObservation();
				return (parent != null) ? parent.getContextView().getName() + " "
						+ parent.getContextView().getLowCardinalityKeyValue("method") : "no parent";
			}).doFirst(nested::start).doFinally((signal) -> nested.stop());
		});
	}

	/**
	 * Throw an exception that an {@code @ExceptionHandler} method resolves.
	 */
	@GetMapping("/handled")
	public String handled() {
		throw new HandledException();
	}

	@ExceptionHandler(HandledException.class)
	public ResponseEntity<String> onHandled(HandledException ex) {
		return ResponseEntity.status(HttpStatus.CONFLICT).body("handled");
	}

	@GetMapping("/unavailable")
	public String unavailable() {
		throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "not now");
	}

	/**
	 * A streamed body that completes.
	 */
	@GetMapping(path = "/flux", produces = MediaType.TEXT_PLAIN_VALUE)
	public Flux<String> flux() {
		return Flux.range(0, 3).map((i) -> "line " + i + "\n");
	}

	/**
	 * A streamed body that fails once the response is committed.
	 */
	@GetMapping(path = "/flux/broken", produces = MediaType.TEXT_PLAIN_VALUE)
	public Flux<String> brokenFlux() {
		return Flux.just(CHUNK, CHUNK).concatWith(Flux.error(new IllegalStateException("late")));
	}

	/**
	 * A response that takes its time: its client goes away before it is committed.
	 */
	@GetMapping("/slow")
	public Mono<String> slow() {
		return Mono.delay(Duration.ofSeconds(5)).map((i) -> "late");
	}

	/**
	 * What code outside Spring's HTTP handler adapter finds once a request is done: the
	 * context's key values and contextual name.
	 */
	@Bean
	public HttpHandlerDecoratorFactory afterRequestsDecorator(AfterRequests afterRequests) {
		return (handler) -> new AfterRequestsHandler(handler, afterRequests);
	}

	@Bean
	public AfterRequests afterRequests() {
		return new AfterRequests();
	}

	/**
	 * A clock that never moves, when asked for (see {@link RecordingTestApplication}).
	 */
	@Bean
	@ConditionalOnBooleanProperty("test.frozen-clock")
	public Clock micrometerClock() {
		return new MockClock();
	}

	public static ConfigurableApplicationContext start(String... properties) {
		return start(List.of(), properties);
	}

	/**
	 * Start the application with more configuration classes.
	 */
	public static ConfigurableApplicationContext start(List<Class<?>> configurations, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.main.web-application-type=reactive", "server.port=0",
				"spring.main.banner-mode=off", "management.endpoints.web.exposure.include=prometheus",
				"management.metrics.use-global-registry=false"));
		all.addAll(List.of(properties));
		List<Class<?>> sources = new ArrayList<>(configurations);
		sources.add(0, ReactiveRecordingTestApplication.class);
		return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).properties(all.toArray(String[]::new))
			.run();
	}

	/**
	 * Return the web handler that Spring WebFlux's adapter calls, when it is the
	 * starter's.
	 */
	public static @Nullable ServerRequestRecordingWebHandler recordingWebHandler(
			ConfigurableApplicationContext context) {
		Object httpHandler = context.getBean(HttpHandler.class);
		if (httpHandler instanceof AfterRequestsHandler decorator) {
			httpHandler = decorator.delegate;
		}
		if (httpHandler instanceof HttpWebHandlerAdapter adapter
				&& adapter.getDelegate() instanceof ServerRequestRecordingWebHandler recording) {
			return recording;
		}
		return null;
	}

	/**
	 * An exception an {@code @ExceptionHandler} method resolves.
	 */
	public static final class HandledException extends RuntimeException {

	}

	/**
	 * Records what it finds after each request, outside Spring's adapter.
	 */
	public static final class AfterRequestsHandler implements HttpHandler {

		private final HttpHandler delegate;

		private final AfterRequests afterRequests;

		public AfterRequestsHandler(HttpHandler delegate, AfterRequests afterRequests) {
			this.delegate = delegate;
			this.afterRequests = afterRequests;
		}

		@Override
		public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
			return this.delegate.handle(request, response).doOnSuccess((done) -> this.afterRequests.record(request));
		}

	}

	/**
	 * What the decorator outside found, per request path.
	 */
	public static final class AfterRequests {

		private final Map<String, String> found = new ConcurrentHashMap<>();

		public void record(ServerHttpRequest request) {
			String seen = ServerRequestObservationContext.findCurrent(request.getAttributes())
				.map((context) -> context.getLowCardinalityKeyValues() + " " + context.getHighCardinalityKeyValues()
						+ " " + context.getContextualName() + " " + errorType(context.getError()))
				.orElse("no context");
			this.found.put(request.getPath().value(), seen);
		}

		public Map<String, String> found() {
			return new TreeMap<>(this.found);
		}

		/**
		 * Name an error by its class: its message may hold the server's port.
		 */
		private static @Nullable String errorType(@Nullable Throwable error) {
			return (error != null) ? error.getClass().getName() : null;
		}

	}

}
