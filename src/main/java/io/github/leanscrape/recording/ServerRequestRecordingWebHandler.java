package io.github.leanscrape.recording;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopMeter;
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
 * The web handler that Spring WebFlux's HTTP handler adapter calls, in the place of the
 * exception handling one it wraps ({@link ReactiveServerRequestRecording}): where an
 * observation would have reached nothing but the starter's meter handler, it records
 * {@code http.server.requests} straight into cached meters, the adapter's own observation
 * being a no-op; otherwise it only counts the request and hands it on.
 * <p>
 * Recording directly, a request gets the starter's {@link RecordedReactiveRequestContext}
 * in the exchange attribute where Spring's adapter put its own (before anything else
 * could see it), and the starter's {@link ReactiveRequestObservation}, which does what
 * the adapter's observation does: in the Reactor context of everything the request runs,
 * from the moment it is subscribed to, timed and tagged at its end with the same
 * semantics.
 *
 * @author leanscrape
 */
final class ServerRequestRecordingWebHandler extends WebHandlerDecorator {

	private final ObservationRegistry observationRegistry;

	private final ServerRequestObservationConvention convention;

	private final CachingMeterObservationHandler handler;

	private final MeterRegistry meterRegistry;

	private final Clock clock;

	private final boolean longTaskTimers;

	/** {@code null} only when requests are observed: then it is never read. */
	private final @Nullable String name;

	private final ServerRequestCache cache;

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
		this.meterRegistry = meterRegistry;
		this.clock = meterRegistry.config().clock();
		this.longTaskTimers = longTaskTimers;
		this.name = convention.getName();
		this.cache = new ServerRequestCache(maxCachedMeters);
		this.bypassing = bypassing;
		this.directRequests = directRequests;
		this.observedRequests = observedRequests;
		if (bypassing) {
			ServerRequestCache cache = this.cache;
			meterRegistry.config().onMeterRemoved(cache::evict);
		}
	}

	/**
	 * Return whether requests are recorded without observations.
	 * @return {@code true} when requests are recorded without an observation
	 */
	boolean isBypassingObservations() {
		return this.bypassing;
	}

	/**
	 * Return the number of meters cached.
	 * @return the number of cached timers and long task timers
	 */
	int cachedMeterCount() {
		return this.cache.size();
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
	 * {@code .active} long task timer starts with the key values known then, then the
	 * clock is read.
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
		LongTaskTimer.@Nullable Sample longTask = null;
		if (this.longTaskTimers) {
			longTask = longTaskTimer(context).start();
		}
		observation.started(this.clock.monotonicTime(), longTask);
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
	 */
	void stop(ReactiveRequestObservation observation) {
		Timer timer = timer(observation);
		timer.record(this.clock.monotonicTime() - observation.startTime(), TimeUnit.NANOSECONDS);
		ObservationConvention<Observation.Context> given = observation.convention();
		observation.context().stop((given != null) ? given : this.convention);
		LongTaskTimer.Sample longTask = observation.longTask();
		if (longTask != null) {
			longTask.stop();
		}
	}

	private LongTaskTimer longTaskTimer(RecordedReactiveRequestContext context) {
		// A new context: no pattern, no error, no key values added, not aborted.
		ServerHttpRequest request = Objects.requireNonNull(context.getCarrier());
		int method = ServerRequestCache.methodIndex(request.getMethod().name());
		int status = CachingReactiveServerRequestObservationConvention.statusKey(context);
		int hash = ServerRequestCache.hash(true, null, method, status, null);
		Object cached = this.cache.get(hash, true, null, method, status, null);
		if (cached != null) {
			return (LongTaskTimer) cached;
		}
		long removals = this.cache.removals();
		LongTaskTimer longTaskTimer = DefaultHandlerMeters.longTaskTimer(this.meterRegistry, this.name,
				this.convention.getLowCardinalityKeyValues(context));
		if (this.cache.hasRoom() && !(longTaskTimer instanceof NoopMeter)) {
			this.cache.put(hash, true, null, method, status, null, longTaskTimer, removals);
		}
		return longTaskTimer;
	}

	private Timer timer(ReactiveRequestObservation observation) {
		RecordedReactiveRequestContext context = observation.context();
		Throwable error = context.getError();
		String errorValue = DefaultHandlerMeters.errorValue(error);
		ObservationConvention<Observation.Context> given = observation.convention();
		// The name is the context's at the end, as the default handler reads it; only the
		// convention's own name is cached.
		String contextName = context.getName();
		String name = (contextName != null) ? contextName : Objects.requireNonNull(this.name);
		if (given != null) {
			// Given during the request: it decides the key values at the end, in place of
			// the adapter's convention.
			context.addLowCardinalityKeyValues(given.getLowCardinalityKeyValues(context));
			return DefaultHandlerMeters.timer(this.meterRegistry, name, context.getLowCardinalityKeyValues(),
					errorValue);
		}
		if (context.hasLowCardinalityKeyValues() || !name.equals(this.name)) {
			// What the observation does at its stop: the convention's key values over
			// those already in the context.
			context.addLowCardinalityKeyValues(this.convention.getLowCardinalityKeyValues(context));
			return DefaultHandlerMeters.timer(this.meterRegistry, name, context.getLowCardinalityKeyValues(),
					errorValue);
		}
		ServerHttpRequest request = Objects.requireNonNull(context.getCarrier());
		String pattern = context.getPathPattern();
		int method = ServerRequestCache.methodIndex(request.getMethod().name());
		int status = CachingReactiveServerRequestObservationConvention.statusKey(context);
		Class<?> errorType = (error != null) ? error.getClass() : null;
		int hash = ServerRequestCache.hash(false, pattern, method, status, errorType);
		Object cached = this.cache.get(hash, false, pattern, method, status, errorType);
		if (cached != null) {
			return (Timer) cached;
		}
		long removals = this.cache.removals();
		Timer timer = DefaultHandlerMeters.timer(this.meterRegistry, this.name,
				this.convention.getLowCardinalityKeyValues(context), errorValue);
		if (this.cache.hasRoom() && !(timer instanceof NoopMeter)) {
			this.cache.put(hash, false, pattern, method, status, errorType, timer, removals);
		}
		return timer;
	}

}
