package io.github.leanscrape.recording;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import io.github.leanscrape.recording.servlet.CachingServerRequestObservationConvention;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.handler.TracingAwareMeterObservationHandler;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
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
import org.openjdk.jmh.annotations.TearDown;
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
 * the same convention and handler;</li>
 * <li>{@code traced}: a Brave tracer's handlers alone, as Spring Boot groups them, with
 * Spring's filter and convention: what tracing costs without metrics;</li>
 * <li>{@code traced-default}: the tracer with Micrometer's default meter handler (wrapped
 * for exemplars, as Spring Boot wraps it);</li>
 * <li>{@code traced-leanscrape}: the tracer with the starter as it comes (its filter
 * keeps the observation beside a tracer; its handler and convention). Less
 * {@code traced}: what the metrics side costs with a tracer.</li>
 * </ul>
 * The servlet request and response are Spring's mocks: the point is the filter's work,
 * not a server's. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes per
 * request.
 *
 * @author leanscrape
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

	/**
	 * How the request is recorded, as the class's description lists.
	 */
	@Param({ "none", "default", "handler", "observed", "leanscrape", "traced", "traced-default", "traced-leanscrape" })
	public String recording;

	private ServerHttpObservationFilter filter;

	private static final SpanHandler DISCARDING = new SpanHandler() {

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			return true;
		}

	};

	private final MappingChain chain = new MappingChain();

	private @Nullable Tracing tracing;

	private int next;

	@Setup
	public void setUp() {
		PrometheusMeterRegistry meterRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		DefaultMeterObservationHandler defaultHandler = new DefaultMeterObservationHandler(meterRegistry);
		CachingMeterObservationHandler handler = new CachingMeterObservationHandler(meterRegistry, 2000);
		DefaultServerRequestObservationConvention convention = new DefaultServerRequestObservationConvention();
		switch (this.recording) {
			case "none" -> {
				this.filter = null;
			}
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
			case "traced" -> {
				this.tracing = tracing(observationRegistry);
				this.filter = new ServerHttpObservationFilter(observationRegistry, convention);
			}
			case "traced-default" -> {
				Tracing tracing = tracing(observationRegistry);
				this.tracing = tracing;
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(
							new TracingAwareMeterObservationHandler<>(defaultHandler, tracer(tracing))));
				this.filter = new ServerHttpObservationFilter(observationRegistry, convention);
			}
			case "traced-leanscrape" -> {
				Tracing tracing = tracing(observationRegistry);
				this.tracing = tracing;
				BraveTracer tracer = tracer(tracing);
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(
							new TracingAwareMeterObservationHandler<>(handler, tracer),
							new TracingAwareMeterObservationHandler<>(defaultHandler, tracer)));
				ServerRequestMetricsFilter filter = new ServerRequestMetricsFilter(observationRegistry,
						new CachingServerRequestObservationConvention(convention.getName(), 2000), handler,
						meterRegistry, true, 2000);
				if (filter.isBypassingObservations()) {
					throw new IllegalStateException("Recording directly beside a tracer");
				}
				this.filter = filter;
			}
			default -> throw new IllegalArgumentException(this.recording);
		}
	}

	@TearDown
	public void closeTracing() {
		Tracing tracing = this.tracing;
		if (tracing != null) {
			tracing.close();
		}
	}

	/**
	 * A Brave tracer's observation handlers, registered as Spring Boot registers them:
	 * one first-matching group, before the meter handlers.
	 * @param observationRegistry the registry to register them in
	 * @return the tracer, to close after the benchmark
	 */
	static Tracing tracing(ObservationRegistry observationRegistry) {
		// Without a handler Brave logs every span: the finished spans go nowhere instead,
		// as if sent by a reporter that costs nothing.
		Tracing tracing = Tracing.newBuilder()
			.currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder().build())
			.addSpanHandler(DISCARDING)
			.build();
		BraveTracer tracer = tracer(tracing);
		BravePropagator propagator = new BravePropagator(tracing);
		observationRegistry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
					new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
					new DefaultTracingObservationHandler(tracer)));
		return tracing;
	}

	static BraveTracer tracer(Tracing tracing) {
		return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
				new BraveBaggageManager());
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
