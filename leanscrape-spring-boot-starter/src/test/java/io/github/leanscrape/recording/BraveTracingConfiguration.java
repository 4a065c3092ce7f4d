package io.github.leanscrape.recording;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import brave.Tracing;
import brave.context.slf4j.MDCScopeDecorator;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real tracer, Brave through Micrometer Tracing's bridge, wired as Spring Boot's Brave
 * and tracing auto-configurations wire it: every trace sampled, the trace and span ids in
 * the logging MDC while a span is in scope (log correlation), the propagating receiver
 * and sender handlers before the default tracing handler, the meter handlers wrapped to
 * know the tracer, and a Prometheus {@link SpanContext} for exemplars. Spring Boot's
 * tracing modules are not on the test class path: their tracer would be in every test
 * application. Finished spans are collected; {@code /trace} answers with what a log line
 * written while handling the request would carry.
 */
@Configuration(proxyBeanMethods = false)
class BraveTracingConfiguration {

	@Bean
	FinishedSpans finishedSpans() {
		return new FinishedSpans();
	}

	@Bean(destroyMethod = "close")
	Tracing braveTracing(FinishedSpans finishedSpans) {
		return Tracing.newBuilder()
			.localServiceName("recording-test")
			.supportsJoin(false)
			.traceId128Bit(true)
			.sampler(Sampler.ALWAYS_SAMPLE)
			.currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder()
				.addScopeDecorator(MDCScopeDecorator.newBuilder().build())
				.build())
			.addSpanHandler(finishedSpans)
			.build();
	}

	@Bean
	BraveTracer braveTracer(Tracing tracing) {
		return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
				new BraveBaggageManager());
	}

	@Bean
	BravePropagator bravePropagator(Tracing tracing) {
		return new BravePropagator(tracing);
	}

	// Spring Boot's orders for its tracing handlers.

	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE - 1000)
	DefaultTracingObservationHandler defaultTracingObservationHandler(Tracer tracer) {
		return new DefaultTracingObservationHandler(tracer);
	}

	@Bean
	@Order(2000)
	PropagatingSenderTracingObservationHandler<?> propagatingSenderTracingObservationHandler(Tracer tracer,
			Propagator propagator) {
		return new PropagatingSenderTracingObservationHandler<>(tracer, propagator);
	}

	@Bean
	@Order(1000)
	PropagatingReceiverTracingObservationHandler<?> propagatingReceiverTracingObservationHandler(Tracer tracer,
			Propagator propagator) {
		return new PropagatingReceiverTracingObservationHandler<>(tracer, propagator);
	}

	@Bean
	ObservationHandlerGroup tracingAndMeterObservationHandlerGroup(Tracer tracer) {
		return new OtherObservationHandlersTests.TracingAndMeterObservationHandlerGroup(tracer);
	}

	@Bean
	SpanContext tracerSpanContext(Tracer tracer) {
		return new TracerSpanContext(tracer);
	}

	/**
	 * What a log line written by a controller would carry, beside the span the tracer has
	 * in scope.
	 */
	@RestController
	static final class TraceController {

		private final Tracer tracer;

		TraceController(Tracer tracer) {
			this.tracer = tracer;
		}

		@GetMapping("/trace")
		String trace() {
			Span span = this.tracer.currentSpan();
			String inScope = (span != null) ? span.context().traceId() + " " + span.context().spanId() : "none none";
			return MDC.get("traceId") + " " + MDC.get("spanId") + " " + inScope;
		}

	}

	/**
	 * The current span for Prometheus exemplars, read from the tracer as Spring Boot's
	 * does.
	 */
	static final class TracerSpanContext implements SpanContext {

		private final Tracer tracer;

		TracerSpanContext(Tracer tracer) {
			this.tracer = tracer;
		}

		@Override
		public @Nullable String getCurrentTraceId() {
			Span span = this.tracer.currentSpan();
			return (span != null) ? span.context().traceId() : null;
		}

		@Override
		public @Nullable String getCurrentSpanId() {
			Span span = this.tracer.currentSpan();
			return (span != null) ? span.context().spanId() : null;
		}

		@Override
		public boolean isCurrentSpanSampled() {
			Span span = this.tracer.currentSpan();
			return span != null && Boolean.TRUE.equals(span.context().sampled());
		}

		@Override
		public void markCurrentSpanAsExemplar() {
		}

	}

	/**
	 * The spans Brave finished, as a reporter would receive them.
	 */
	static final class FinishedSpans extends SpanHandler {

		private final List<MutableSpan> spans = new ArrayList<>();

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			if (cause == Cause.FINISHED) {
				synchronized (this.spans) {
					this.spans.add(span);
				}
			}
			return true;
		}

		List<MutableSpan> spans() {
			synchronized (this.spans) {
				return new ArrayList<>(this.spans);
			}
		}

		/**
		 * Return each span as what a tracing backend would group it by: kind, name, tags
		 * and error; not its ids, times or the client's port.
		 * @param spans the spans
		 * @return the descriptions, sorted
		 */
		static List<String> described(List<MutableSpan> spans) {
			List<String> described = new ArrayList<>();
			for (MutableSpan span : spans) {
				Map<String, String> tags = new TreeMap<>(span.tags());
				Throwable error = span.error();
				described.add(span.kind() + " " + span.name() + " " + tags + " "
						+ ((error != null) ? error.getClass().getName() : "no error"));
			}
			described.sort(null);
			return described;
		}

	}

}
