package io.github.leanscrape.recording;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MockClock;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * The endpoints of {@link RecordingTestApplication} on Spring WebFlux and Reactor Netty:
 * plain, path variables, a POST, a custom status, a redirect, an exception, a deferred
 * result and a body streamed until the client goes away.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@RestController
class ReactiveRecordingTestApplication {

	private static final String CHUNK = "x".repeat(8192);

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@PostMapping("/echo")
	Mono<String> echo(@RequestBody Mono<String> body) {
		return body;
	}

	@GetMapping("/items/{id}")
	String item(@PathVariable String id) {
		return "item " + id;
	}

	@GetMapping("/items/{id}/parts/{part}")
	String part(@PathVariable String id, @PathVariable String part) {
		return "item " + id + " part " + part;
	}

	@GetMapping("/teapot")
	ResponseEntity<String> teapot() {
		return ResponseEntity.status(418).body("short and stout");
	}

	@GetMapping("/redirect")
	ResponseEntity<Void> redirect() {
		return ResponseEntity.status(302).location(URI.create("/hello")).build();
	}

	/**
	 * Add a key value of its own to the request's observation context, as Spring invites
	 * web frameworks and applications to.
	 */
	@GetMapping("/tenant")
	String tenant(ServerWebExchange exchange) {
		ServerRequestObservationContext.findCurrent(exchange.getAttributes())
			.ifPresent((context) -> context.addLowCardinalityKeyValue(KeyValue.of("tenant", "acme")));
		return "acme";
	}

	@GetMapping("/boom")
	String boom() {
		throw new IllegalStateException("boom");
	}

	/**
	 * A result produced when subscribed to, on the connection's event loop. Not from a
	 * timer thread ({@code Mono.delay}): with the JDK 25 HTTP client, the request after
	 * such a response on the same connection sometimes got no answer from Reactor Netty,
	 * with and without the starter.
	 */
	@GetMapping("/async")
	Mono<String> async() {
		return Mono.fromSupplier(() -> "later");
	}

	/**
	 * Write until the client has gone: the connection closes under the stream.
	 */
	@GetMapping(path = "/stream", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	Flux<String> stream() {
		return Flux.range(0, 100_000).map((i) -> CHUNK);
	}

	/**
	 * A clock that never moves, when asked for (see {@link RecordingTestApplication}).
	 */
	@Bean
	@ConditionalOnBooleanProperty("test.frozen-clock")
	Clock micrometerClock() {
		return new MockClock();
	}

	static ConfigurableApplicationContext start(String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.main.web-application-type=reactive", "server.port=0",
				"spring.main.banner-mode=off", "management.endpoints.web.exposure.include=prometheus",
				"management.metrics.use-global-registry=false"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(ReactiveRecordingTestApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
	}

}
