package io.github.leanscrape.recording.reactive;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.ServerRequestCache;
import io.github.leanscrape.recording.ServerRequestMeters;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.handler.WebHandlerDecorator;

/**
 * The web handler that Spring WebFlux's HTTP handler adapter calls in place of the
 * exception handling one it wraps ({@link ReactiveServerRequestRecording}). Where an
 * observation would reach nothing but the starter's meter handler, it records
 * {@code http.server.requests} straight into cached meters, the adapter's observation
 * being a no-op: a request gets a {@link RecordedReactiveRequestContext} in the exchange
 * attribute where the adapter put its own, and a {@link ReactiveRequestObservation} doing
 * what the adapter's observation does. Otherwise it only counts the request and hands it
 * on.
 *
 * @author leanscrape
 */
public final class ServerRequestRecordingWebHandler extends WebHandlerDecorator {

	private final ObservationRegistry observationRegistry;

	private final ServerRequestObservationConvention convention;

	private final CachingMeterObservationHandler handler;

	private final Clock clock;

	private final boolean longTaskTimers;

	/** {@code null} only when requests are observed: then it is never read. */
	private final @Nullable String name;

	/** {@code null} when requests are observed: they are recorded by the handler. */
	private final @Nullable ServerRequestMeters meters;

	private final boolean bypassing;

	private final LongAdder directRequests;

	private final LongAdder observedRequests;

	/**
	 * Create a new instance.
	 * @param delegate the exception handling web handler Spring wraps
	 * @param observationRegistry the registry requests would be observed in
	 * @param convention the convention of request observations
	 * @param handler the starter's meter handler
	 * @param meterRegistry the registry to record into
	 * @param longTaskTimers whether to record the {@code .active} long task timer
	 * @param maxCachedMeters the most meters to cache
	 * @param bypassing whether requests are recorded without an observation
	 * @param directRequests the count of requests recorded without an observation
	 * @param observedRequests the count of requests recorded through an observation
	 */
	ServerRequestRecordingWebHandler(WebHandler delegate, ObservationRegistry observationRegistry,
			ServerRequestObservationConvention convention, CachingMeterObservationHandler handler,
			MeterRegistry meterRegistry, boolean longTaskTimers, int maxCachedMeters, boolean bypassing,
			LongAdder directRequests, LongAdder observedRequests) {
		super(delegate);
		this.observationRegistry = observationRegistry;
		this.convention = convention;
		this.handler = handler;
		this.clock = meterRegistry.config().clock();
		this.longTaskTimers = longTaskTimers;
		this.name = convention.getName();
		this.meters = bypassing ? new ServerRequestMeters(meterRegistry, this.name, maxCachedMeters) : null;
		this.bypassing = bypassing;
		this.directRequests = directRequests;
		this.observedRequests = observedRequests;
	}

	/**
	 * Return whether requests are recorded without observations.
	 * @return {@code true} when requests are recorded without an observation
	 */
	public boolean isBypassingObservations() {
		return this.bypassing;
	}

	/**
	 * Return the number of meters cached.
	 * @return the number of cached timers and long task timers
	 */
	int cachedMeterCount() {
		return (this.meters != null) ? this.meters.size() : 0;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange) {
		if (!this.bypassing) {
			this.observedRequests.increment();
			return getDelegate().handle(exchange);
		}
		// Spring's adapter has just put its context in the attribute, and nothing has
		// read it yet: the starter's takes its place.
		RecordedReactiveRequestContext context = new RecordedReactiveRequestContext(exchange.getRequest(),
				exchange.getResponse(), exchange.getAttributes(), this.convention);
		exchange.getAttributes().put(ServerRequestObservationContext.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE, context);
		// Asked for at once, as the adapter asks.
		Mono<Void> handled = getDelegate().handle(exchange);
		this.directRequests.increment();
		return new RecordedRequestMono(handled, this, context);
	}

	ObservationRegistry observationRegistry() {
		return this.observationRegistry;
	}

	CachingMeterObservationHandler handler() {
		return this.handler;
	}

	/**
	 * Start recording a request, as the observation's start and the default meter handler
	 * would: its parent is the observation current when it is subscribed to, the
	 * {@code .active} long task timer starts with the key values known then, then its
	 * timing.
	 * @param observation the request's observation
	 */
	void start(ReactiveRequestObservation observation) {
		RecordedReactiveRequestContext context = observation.context();
		Observation current = currentObservation();
		if (current != null) {
			context.setParentObservation(current);
		}
		ServerHttpResponse response = Objects.requireNonNull(context.getResponse());
		// Bypassing observations: ObservationBypassCheck found the convention's name.
		context.start(Objects.requireNonNull(this.name), response);
		observation.started(this.longTaskTimers ? longTaskTimer(context) : null, this.clock);
	}

	/**
	 * Return the observation current when a request is subscribed to, as Spring's adapter
	 * finds it: in Reactor's automatic context propagation, the adapter's own no-op
	 * observation has just been made current around the subscription; the one it replaced
	 * is what the adapter's observation would have found.
	 * @return the current observation, or {@code null}
	 */
	private @Nullable Observation currentObservation() {
		Observation current = this.observationRegistry.getCurrentObservation();
		if (current == null || !current.isNoop()) {
			return current;
		}
		Observation.Scope scope = this.observationRegistry.getCurrentObservationScope();
		Observation.Scope previous = (scope != null) ? scope.getPreviousObservationScope() : null;
		return (previous != null) ? previous.getCurrentObservation() : null;
	}

	/**
	 * Record a request, as the observation's stop and the default meter handler would.
	 * @param observation the request's observation
	 * @param beforeEnd whether someone stopped the observation, which the request's end
	 * stops again
	 */
	void stop(ReactiveRequestObservation observation, boolean beforeEnd) {
		Timer timer = timer(observation);
		timer.record(observation.stopTiming(this.clock, beforeEnd), TimeUnit.NANOSECONDS);
		ObservationConvention<Observation.Context> given = observation.convention();
		observation.context().stop((given != null) ? given : this.convention);
	}

	private LongTaskTimer longTaskTimer(RecordedReactiveRequestContext context) {
		// A new context: no pattern, no error, no key values added, not aborted.
		ServerHttpRequest request = Objects.requireNonNull(context.getCarrier());
		return meters().longTaskTimer(ServerRequestCache.methodIndex(request.getMethod().name()),
				CachingReactiveServerRequestObservationConvention.statusKey(context), this.convention, context);
	}

	private Timer timer(ReactiveRequestObservation observation) {
		RecordedReactiveRequestContext context = observation.context();
		ServerRequestMeters meters = meters();
		Timer changed = meters.changedTimer(context, context.hasLowCardinalityKeyValues(), observation.convention(),
				this.convention);
		if (changed != null) {
			return changed;
		}
		ServerHttpRequest request = Objects.requireNonNull(context.getCarrier());
		return meters.timer(context.getPathPattern(), ServerRequestCache.methodIndex(request.getMethod().name()),
				CachingReactiveServerRequestObservationConvention.statusKey(context), this.convention, context);
	}

	private ServerRequestMeters meters() {
		// Only requests recorded without observations come here.
		return Objects.requireNonNull(this.meters);
	}

}
