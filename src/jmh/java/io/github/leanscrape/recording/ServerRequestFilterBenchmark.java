package io.github.leanscrape.recording;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * One request through Spring's request observation filter, as Spring Boot registers it,
 * recorded into a Prometheus meter registry: the whole recording path of
 * {@code http.server.requests}, observation included.
 * <ul>
 * <li>{@code none}: no filter, the chain alone (a fresh request and response, and a
 * handler that sets the path pattern where Spring MVC's handler mapping sets it):
 * subtract it to get the recording's own cost;</li>
 * <li>{@code default}: Spring's filter, Micrometer's default meter handler;</li>
 * <li>{@code handler}: Spring's filter and convention, the starter's handler first (as
 * Spring Boot groups them);</li>
 * <li>{@code observed}: what the starter configures where something else observes the
 * request (a tracer): Spring's filter with the starter's
 * {@link CachingServerRequestObservationConvention} and handler;</li>
 * <li>{@code leanscrape}: what the starter configures by default: its
 * {@link ServerRequestMetricsFilter}, recording without Micrometer's observation, with
 * the same convention and handler.</li>
 * </ul>
 * The servlet request and response are Spring's mocks: the point is the filter's work,
 * not a server's. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes per
 * request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class ServerRequestFilterBenchmark {

	private static final String[] PATTERNS = { "/hello", "/items/{id}", "/items/{id}/parts/{part}", "/orders" };

	private static final String[] PATHS = { "/hello", "/items/7", "/items/7/parts/2", "/orders" };

	@Param({ "none", "default", "handler", "observed", "leanscrape" })
	public String recording;

	private ServerHttpObservationFilter filter;

	private final MappingChain chain = new MappingChain();

	private int next;

	@Setup
	public void setUp() {
		PrometheusMeterRegistry meterRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		DefaultMeterObservationHandler defaultHandler = new DefaultMeterObservationHandler(meterRegistry);
		CachingMeterObservationHandler handler = new CachingMeterObservationHandler(meterRegistry, 2000);
		DefaultServerRequestObservationConvention convention = new DefaultServerRequestObservationConvention();
		switch (this.recording) {
			case "none" -> this.filter = null;
			case "default" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(defaultHandler));
				this.filter = new ServerHttpObservationFilter(observationRegistry, convention);
			}
			case "handler" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				this.filter = new ServerHttpObservationFilter(observationRegistry, convention);
			}
			case "observed" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				this.filter = new ServerHttpObservationFilter(observationRegistry,
						new CachingServerRequestObservationConvention(convention.getName(), 2000));
			}
			case "leanscrape" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				ServerRequestMetricsFilter direct = new ServerRequestMetricsFilter(observationRegistry,
						new CachingServerRequestObservationConvention(convention.getName(), 2000), handler,
						meterRegistry, true, 2000);
				if (!direct.isBypassingObservations()) {
					throw new IllegalStateException("Not recording directly");
				}
				this.filter = direct;
			}
			default -> throw new IllegalArgumentException(this.recording);
		}
	}

	@Benchmark
	public int request() throws ServletException, IOException {
		int index = this.next++ & 3;
		MockHttpServletRequest request = new MockHttpServletRequest("GET", PATHS[index]);
		MockHttpServletResponse response = new MockHttpServletResponse();
		this.chain.pattern = PATTERNS[index];
		if (this.filter != null) {
			this.filter.doFilter(request, response, this.chain);
		}
		else {
			this.chain.doFilter(request, response);
		}
		return response.getStatus();
	}

	/**
	 * What Spring MVC does between the filter and the response, as far as the recording
	 * sees it: the handler mapping sets the path pattern on the observation context.
	 */
	private static final class MappingChain implements FilterChain {

		String pattern = "";

		@Override
		public void doFilter(ServletRequest request, ServletResponse response) {
			Object context = request.getAttribute(ServerHttpObservationFilter.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE);
			if (context instanceof org.springframework.http.server.observation.ServerRequestObservationContext observed) {
				observed.setPathPattern(this.pattern);
			}
			((HttpServletResponse) response).setStatus(200);
			((HttpServletRequest) request).getMethod();
		}

	}

}
