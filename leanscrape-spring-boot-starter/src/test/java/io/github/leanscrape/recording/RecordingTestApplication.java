package io.github.leanscrape.recording;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * A Spring MVC application on Tomcat with a few kinds of endpoints: plain, path
 * variables, a POST, a custom status, a redirect, an exception, an async result and a
 * body streamed until the client goes away.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@RestController
public class RecordingTestApplication {

	/** Asked for lazily: the registry's handlers need this class's clock. */
	private final ObjectProvider<ObservationRegistry> observationRegistry;

	public RecordingTestApplication(ObjectProvider<ObservationRegistry> observationRegistry) {
		this.observationRegistry = observationRegistry;
	}

	@GetMapping("/hello")
	public String hello() {
		return "hello";
	}

	@PostMapping("/echo")
	public String echo(@RequestBody String body) {
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
	public String tenant(HttpServletRequest request) {
		ServerHttpObservationFilter.findObservationContext(request)
			.ifPresent((context) -> context.addLowCardinalityKeyValue(KeyValue.of("tenant", "acme")));
		return "acme";
	}

	/**
	 * Add a key value through the current observation, as code that knows nothing of the
	 * request would.
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
	public String keyValues(HttpServletRequest request) {
		ServerRequestObservationContext context = ServerHttpObservationFilter.findObservationContext(request)
			.orElseThrow();
		context.addLowCardinalityKeyValue(KeyValue.of("outcome", "READ"));
		Observation current = this.observationRegistry.getObject().getCurrentObservation();
		KeyValue method = (current != null) ? current.getContextView().getLowCardinalityKeyValue("method") : null;
		return context.getLowCardinalityKeyValues() + " " + context.getHighCardinalityKeyValues() + " " + method;
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
	 * Read the key values after setting a status: those of the start keep the status the
	 * response had then.
	 */
	@GetMapping("/teapot/keyvalues")
	public String teapotKeyValues(HttpServletRequest request, HttpServletResponse response) {
		response.setStatus(418);
		return ServerHttpObservationFilter.findObservationContext(request)
			.orElseThrow()
			.getLowCardinalityKeyValues()
			.toString();
	}

	/**
	 * What code outside the request observation filter finds once a request is done: the
	 * context's key values and contextual name, and no current observation.
	 */
	@Bean
	public FilterRegistrationBean<OncePerRequestFilter> afterRequestsFilter(AfterRequests afterRequests) {
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
				new OncePerRequestFilter() {

					@Override
					protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
							FilterChain chain) throws ServletException, IOException {
						try {
							chain.doFilter(request, response);
						}
						finally {
							if (!request.isAsyncStarted()) {
								afterRequests.record(request,
										RecordingTestApplication.this.observationRegistry.getObject());
							}
						}
					}

				});
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	@Bean
	public AfterRequests afterRequests() {
		return new AfterRequests();
	}

	@GetMapping("/boom")
	public String boom() {
		throw new IllegalStateException("boom");
	}

	@GetMapping("/async")
	public Callable<String> async() {
		return () -> "later";
	}

	/**
	 * Write until the client has gone: the write that meets the closed connection fails.
	 */
	@GetMapping("/stream")
	public void stream(HttpServletResponse response) throws IOException {
		response.setContentType("application/octet-stream");
		byte[] chunk = new byte[8192];
		OutputStream out = response.getOutputStream();
		for (int i = 0; i < 100_000; i++) {
			out.write(chunk);
			out.flush();
		}
	}

	/**
	 * A clock that never moves, when asked for: every duration is zero, so bucket counts,
	 * sums and maxima are the same in every run and every scrape can be compared byte for
	 * byte.
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
		List<String> all = new ArrayList<>(List.of("spring.main.web-application-type=servlet", "server.port=0",
				"spring.main.banner-mode=off", "management.endpoints.web.exposure.include=prometheus",
				"management.metrics.use-global-registry=false",
				"logging.level.org.apache.catalina.core.ContainerBase=off"));
		all.addAll(List.of(properties));
		List<Class<?>> sources = new ArrayList<>(configurations);
		sources.add(0, RecordingTestApplication.class);
		return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).properties(all.toArray(String[]::new))
			.run();
	}

	public static int port(ConfigurableApplicationContext context) {
		return context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	/**
	 * What the filter outside found, per request path.
	 */
	public static final class AfterRequests {

		private final Map<String, String> found = new ConcurrentHashMap<>();

		public void record(HttpServletRequest request, ObservationRegistry registry) {
			String seen = ServerHttpObservationFilter.findObservationContext(request)
				.map((context) -> context.getLowCardinalityKeyValues() + " " + context.getHighCardinalityKeyValues()
						+ " " + context.getContextualName())
				.orElse("no context");
			this.found.put(request.getRequestURI(), seen + ", current: " + registry.getCurrentObservation());
		}

		public Map<String, String> found() {
			return new TreeMap<>(this.found);
		}

	}

}
