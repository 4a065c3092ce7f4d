package io.github.leanscrape.recording;

import java.util.concurrent.TimeUnit;

import brave.Tracing;
import io.github.leanscrape.recording.reactive.CachingReactiveServerRequestObservationConvention;
import io.github.leanscrape.recording.reactive.ReactiveServerRequestRecording;
import io.github.leanscrape.recording.reactive.ServerRequestRecordingWebHandler;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.TracingAwareMeterObservationHandler;
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
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

/**
 * The Spring WebFlux twin of {@link ServerRequestFilterBenchmark}: one request through
 * Spring WebFlux's HTTP handler adapter, as {@code WebHttpHandlerBuilder} builds it,
 * recorded into a Prometheus meter registry.
 * <ul>
 * <li>{@code none}: the adapter with no observation registry (the exchange, the adapter's
 * context and its no-op observation): subtract it to get the recording's own cost;</li>
 * <li>{@code default}: Spring's convention, Micrometer's default meter handler;</li>
 * <li>{@code handler}: Spring's convention, the starter's handler first (as Spring Boot
 * groups them);</li>
 * <li>{@code observed}: the starter's
 * {@link CachingReactiveServerRequestObservationConvention} and its handler first,
 * through Micrometer's observation (what the starter does where a tracer observes the
 * request);</li>
 * <li>{@code leanscrape}: what the starter configures by default: the adapter made again
 * by {@link ReactiveServerRequestRecording}, recording without Micrometer's
 * observation.</li>
 * <li>{@code traced}, {@code traced-default}, {@code traced-leanscrape}: the same with a
 * Brave tracer, as in {@link ServerRequestFilterBenchmark}: the tracer's handlers alone,
 * with Micrometer's default meter handler, and with the starter as it comes (which keeps
 * the observation beside a tracer). Less {@code traced}: what the metrics side costs with
 * a tracer.</li>
 * </ul>
 * The request is Spring's mock, the response discards what is written, and the web
 * handler only sets the path pattern, a status and completes the response. Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes per request.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
public class ReactiveServerRequestBenchmark {

	private static final String[] PATTERNS = { "/hello", "/items/{id}", "/items/{id}/parts/{part}", "/orders" };

	private static final String[] PATHS = { "/hello", "/items/7", "/items/7/parts/2", "/orders" };

	/**
	 * How the request is recorded, as the class's description lists.
	 */
	@Param({ "none", "default", "handler", "observed", "leanscrape", "traced", "traced-default", "traced-leanscrape" })
	public String recording;

	private final MappingHandler mapping = new MappingHandler();

	private HttpHandler httpHandler;

	private @Nullable Tracing tracing;

	private int next;

	@Setup
	public void setUp() {
		PrometheusMeterRegistry meterRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		DefaultMeterObservationHandler defaultHandler = new DefaultMeterObservationHandler(meterRegistry);
		CachingMeterObservationHandler handler = new CachingMeterObservationHandler(meterRegistry, 2000);
		DefaultServerRequestObservationConvention convention = new DefaultServerRequestObservationConvention();
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				convention.getName(), 2000);
		WebHttpHandlerBuilder builder = WebHttpHandlerBuilder.webHandler(this.mapping);
		switch (this.recording) {
			case "none" -> {
				this.httpHandler = builder.build();
			}
			case "default" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(defaultHandler));
				this.httpHandler = build(builder, observationRegistry, convention);
			}
			case "handler" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				this.httpHandler = build(builder, observationRegistry, convention);
			}
			case "observed" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				this.httpHandler = build(builder, observationRegistry, caching);
			}
			case "leanscrape" -> {
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(handler, defaultHandler));
				this.httpHandler = new ReactiveServerRequestRecording(handler, meterRegistry, true, 2000)
					.apply(build(builder, observationRegistry, caching));
			}
			case "traced" -> {
				this.tracing = ServerRequestFilterBenchmark.tracing(observationRegistry);
				this.httpHandler = build(builder, observationRegistry, convention);
			}
			case "traced-default" -> {
				Tracing tracing = ServerRequestFilterBenchmark.tracing(observationRegistry);
				this.tracing = tracing;
				observationRegistry.observationConfig()
					.observationHandler(
							new FirstMatchingCompositeObservationHandler(new TracingAwareMeterObservationHandler<>(
									defaultHandler, ServerRequestFilterBenchmark.tracer(tracing))));
				this.httpHandler = build(builder, observationRegistry, convention);
			}
			case "traced-leanscrape" -> {
				Tracing tracing = ServerRequestFilterBenchmark.tracing(observationRegistry);
				this.tracing = tracing;
				BraveTracer tracer = ServerRequestFilterBenchmark.tracer(tracing);
				observationRegistry.observationConfig()
					.observationHandler(new FirstMatchingCompositeObservationHandler(
							new TracingAwareMeterObservationHandler<>(handler, tracer),
							new TracingAwareMeterObservationHandler<>(defaultHandler, tracer)));
				HttpHandler recorded = new ReactiveServerRequestRecording(handler, meterRegistry, true, 2000)
					.apply(build(builder, observationRegistry, caching));
				if (((ServerRequestRecordingWebHandler) ((HttpWebHandlerAdapter) recorded).getDelegate())
					.isBypassingObservations()) {
					throw new IllegalStateException("Recording directly beside a tracer");
				}
				this.httpHandler = recorded;
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

	private static HttpHandler build(WebHttpHandlerBuilder builder, ObservationRegistry observationRegistry,
			ServerRequestObservationConvention convention) {
		return builder.observationRegistry(observationRegistry).observationConvention(convention).build();
	}

	@Benchmark
	public Object request() {
		int index = this.next++ & 3;
		MockServerHttpRequest request = MockServerHttpRequest.get(PATHS[index]).build();
		BenchmarkResponse response = new BenchmarkResponse();
		this.mapping.pattern = PATTERNS[index];
		this.httpHandler.handle(request, response).block();
		return response.getStatusCode();
	}

	/**
	 * A response that discards what is written. Not Spring's mock: its constructor makes
	 * an exception (for a body nothing wrote), whose stack trace costs more than the
	 * recording measured here and varies with the depth of the call.
	 */
	private static final class BenchmarkResponse extends AbstractServerHttpResponse {

		BenchmarkResponse() {
			super(DefaultDataBufferFactory.sharedInstance);
		}

		@Override
		public <T> T getNativeResponse() {
			throw new UnsupportedOperationException();
		}

		@Override
		protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
			return Flux.from(body).doOnNext(DataBufferUtils::release).then();
		}

		@Override
		protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return Flux.from(body).flatMap(Flux::from).doOnNext(DataBufferUtils::release).then();
		}

		@Override
		protected void applyStatusCode() {
		}

		@Override
		protected void applyHeaders() {
		}

		@Override
		protected void applyCookies() {
		}

	}

	/**
	 * What Spring WebFlux does between the adapter and the response, as far as the
	 * recording sees it: the handler mapping sets the path pattern on the observation
	 * context, and the response is written.
	 */
	private static final class MappingHandler implements WebHandler {

		String pattern = "";

		@Override
		public Mono<Void> handle(ServerWebExchange exchange) {
			Object context = exchange.getAttributes()
				.get(ServerRequestObservationContext.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE);
			if (context instanceof ServerRequestObservationContext observed) {
				observed.setPathPattern(this.pattern);
			}
			exchange.getResponse().setStatusCode(HttpStatus.OK);
			return exchange.getResponse().setComplete();
		}

	}

}
