package io.github.leanscrape.recording.servlet;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.ObservationBypassCheck;
import io.github.leanscrape.recording.ServerRequestCache;
import io.github.leanscrape.recording.ServerRequestMeters;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.http.server.observation.ServerRequestObservationConvention;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Spring's {@link ServerHttpObservationFilter}, recording {@code http.server.requests}
 * straight into cached meters, without an observation, where one would reach nothing but
 * the starter's meter handler ({@link ObservationBypassCheck}, decided at the first
 * request); otherwise Spring's filter, unchanged.
 * <p>
 * Bypassing, a request gets a {@link ServerRequestObservationContext} in the request
 * attribute, is timed and tagged as by the default meter handler, and has the starter's
 * {@link RequestObservation} as current observation; closing its scope logs at DEBUG.
 *
 * @author leanscrape
 */
public final class ServerRequestMetricsFilter extends ServerHttpObservationFilter {

	/**
	 * The starter's count of the requests recorded, tagged with the path they took
	 * ({@code path} = {@code direct} or {@code observation}).
	 */
	public static final String REQUESTS_METER = ServerRequestMeters.REQUESTS_METER;

	private static final Log logger = LogFactory.getLog(ServerRequestMetricsFilter.class);

	private final ObservationRegistry observationRegistry;

	private final ServerRequestObservationConvention convention;

	private final CachingMeterObservationHandler handler;

	private final Clock clock;

	private final boolean longTaskTimers;

	/**
	 * {@code null} only for a convention that names no observation: then observations are
	 * never bypassed.
	 */
	private final @Nullable String name;

	private final ServerRequestMeters meters;

	/**
	 * Made once: what stopping a request's observation does, for someone who stops it
	 * before its end.
	 */
	private final Consumer<RequestObservation> stopper = (observation) -> stop(observation, true);

	private volatile @Nullable String alreadyFilteredAttributeName;

	/** Decided at the first request, when the observation registry is configured. */
	private volatile @Nullable Boolean bypassing;

	/** Requests recorded without Micrometer's observation. */
	private final LongAdder directRequests = new LongAdder();

	/** Requests recorded through Micrometer's observation. */
	private final LongAdder observedRequests = new LongAdder();

	/**
	 * Create a new instance.
	 * @param observationRegistry the registry requests are observed in when they are not
	 * recorded without observations
	 * @param convention the convention of request observations
	 * @param handler the starter's meter handler, which must be the only one an
	 * observation would reach
	 * @param meterRegistry the registry to record into
	 * @param longTaskTimers whether to record the {@code .active} long task timer
	 * @param maxCachedMeters the most meters to cache
	 */
	public ServerRequestMetricsFilter(ObservationRegistry observationRegistry,
			ServerRequestObservationConvention convention, CachingMeterObservationHandler handler,
			MeterRegistry meterRegistry, boolean longTaskTimers, int maxCachedMeters) {
		this(observationRegistry, convention, handler, meterRegistry, longTaskTimers, maxCachedMeters, true);
	}

	/**
	 * Create a new instance.
	 * @param observationRegistry the registry requests are observed in when they are not
	 * recorded without observations
	 * @param convention the convention of request observations
	 * @param handler the starter's meter handler, which must be the only one an
	 * observation would reach
	 * @param meterRegistry the registry to record into
	 * @param longTaskTimers whether to record the {@code .active} long task timer
	 * @param maxCachedMeters the most meters to cache
	 * @param countRequests whether to count the requests recorded by each path in
	 * {@value #REQUESTS_METER}, one of the starter's own meters
	 */
	public ServerRequestMetricsFilter(ObservationRegistry observationRegistry,
			ServerRequestObservationConvention convention, CachingMeterObservationHandler handler,
			MeterRegistry meterRegistry, boolean longTaskTimers, int maxCachedMeters, boolean countRequests) {
		super(observationRegistry, convention);
		this.observationRegistry = observationRegistry;
		this.convention = convention;
		this.handler = handler;
		this.clock = meterRegistry.config().clock();
		this.longTaskTimers = longTaskTimers;
		this.name = convention.getName();
		this.meters = new ServerRequestMeters(meterRegistry, this.name, maxCachedMeters);
		if (countRequests) {
			ServerRequestMeters.registerRequestsCounter(meterRegistry, "direct", this.directRequests);
			ServerRequestMeters.registerRequestsCounter(meterRegistry, "observation", this.observedRequests);
		}
	}

	/**
	 * Return whether requests are recorded without observations, deciding it if no
	 * request has yet.
	 * @return {@code true} when requests are recorded without an observation
	 */
	public boolean isBypassingObservations() {
		Boolean bypassing = this.bypassing;
		if (bypassing == null) {
			String reason = ObservationBypassCheck.whyNot(this.observationRegistry, this.handler, this.convention);
			if (reason == null) {
				logger.info("Recording " + this.name + " without observations");
			}
			else {
				logger.info("Recording " + this.name + " through observations: " + reason);
			}
			bypassing = (reason == null);
			this.bypassing = bypassing;
		}
		return bypassing;
	}

	/**
	 * Return the name of the request attribute that marks the request filtered, made once
	 * rather than concatenated on every request as Spring's filter does.
	 * @return the attribute's name, the same as Spring's
	 */
	@Override
	protected String getAlreadyFilteredAttributeName() {
		String name = this.alreadyFilteredAttributeName;
		if (name == null) {
			// Asked only once the filter is initialised, with its name.
			name = super.getAlreadyFilteredAttributeName();
			this.alreadyFilteredAttributeName = name;
		}
		return name;
	}

	/**
	 * Return the number of meters cached.
	 * @return the number of cached timers and long task timers
	 */
	int cachedMeterCount() {
		return this.meters.size();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain filterChain)
			throws ServletException, IOException {
		if (!isBypassingObservations()) {
			if (!isAsyncDispatch(request)) {
				this.observedRequests.increment();
			}
			super.doFilterInternal(request, response, filterChain);
			return;
		}
		// The same steps as Spring's filter, with the starter's observation in place of
		// Micrometer's.
		// An asynchronous dispatch finds the request's observation in its context.
		RequestObservation observation = (request
			.getAttribute(CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE) instanceof RecordedRequestContext recorded)
					? recorded.observation() : null;
		if (observation == null) {
			observation = start(request, response);
			this.directRequests.increment();
		}
		try (Observation.Scope scope = observation.openScope()) {
			filterChain.doFilter(request, response);
		}
		catch (Exception ex) {
			observation.context().setError(unwrapServletException(ex));
			response.setStatus(HttpStatus.INTERNAL_SERVER_ERROR.value());
			throw ex;
		}
		finally {
			if (request.isAsyncStarted() && request.getDispatcherType() == DispatcherType.REQUEST) {
				request.getAsyncContext().addListener(new RecordingAsyncListener(observation));
			}
			else if (!isAsyncDispatch(request)) {
				Throwable error = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
				if (error != null) {
					observation.context().setError(error);
				}
				stop(observation, false);
			}
		}
	}

	private RequestObservation start(HttpServletRequest request, HttpServletResponse response) {
		RecordedRequestContext context = new RecordedRequestContext(request, response, this.convention);
		// As an observation takes the current one as its parent when it is made.
		Observation current = this.observationRegistry.getCurrentObservation();
		if (current != null) {
			context.setParentObservation(current);
		}
		// Bypassing observations: ObservationBypassCheck found the convention's name.
		context.setName(Objects.requireNonNull(this.name));
		RequestObservation observation = new RequestObservation(context, this.observationRegistry, this.handler,
				this.stopper);
		observation.startTiming(this.longTaskTimers ? longTaskTimer(context, request, response) : null, this.clock);
		context.recordedBy(observation);
		request.setAttribute(CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE, context);
		return observation;
	}

	private void stop(RequestObservation observation, boolean beforeEnd) {
		Timer timer = timer(observation);
		timer.record(observation.stopTiming(this.clock, beforeEnd), TimeUnit.NANOSECONDS);
		ObservationConvention<Observation.Context> given = observation.convention();
		// Code that reads the context after the request (an outer filter, an
		// observation that outlives it) sees what an observation leaves at its stop.
		observation.context().stop((given != null) ? given : this.convention);
	}

	private LongTaskTimer longTaskTimer(ServerRequestObservationContext context, HttpServletRequest request,
			HttpServletResponse response) {
		// A new context of this request and response: no pattern, no error, no key values
		// added yet.
		return this.meters.longTaskTimer(ServerRequestCache.methodIndex(request.getMethod()), response.getStatus(),
				this.convention, context);
	}

	private Timer timer(RequestObservation observation) {
		RecordedRequestContext context = observation.context();
		Timer changed = this.meters.changedTimer(context, context.hasLowCardinalityKeyValues(),
				observation.convention(), this.convention);
		if (changed != null) {
			return changed;
		}
		HttpServletRequest request = context.getCarrier();
		HttpServletResponse response = context.getResponse();
		if (request == null || response == null) {
			// The context's request or response was taken away (the context is a request
			// attribute): no combination to cache by, so resolved per request.
			return this.meters.uncachedTimer(this.convention, context);
		}
		return this.meters.timer(context.getPathPattern(), ServerRequestCache.methodIndex(request.getMethod()),
				response.getStatus(), this.convention, context);
	}

	private static Throwable unwrapServletException(Throwable ex) {
		if (ex instanceof ServletException) {
			Throwable cause = ex.getCause();
			if (cause != null) {
				return cause;
			}
		}
		return ex;
	}

	/**
	 * Ends the recording of an asynchronous request as Spring's filter ends its
	 * observation: on timeout and on completion (both, when a request times out), with
	 * the error of an asynchronous failure.
	 */
	private final class RecordingAsyncListener implements AsyncListener {

		private final RequestObservation observation;

		RecordingAsyncListener(RequestObservation observation) {
			this.observation = observation;
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			// Its completion follows, and stops it again.
			stop(this.observation, true);
		}

		@Override
		public void onComplete(AsyncEvent event) {
			stop(this.observation, false);
		}

		@Override
		public void onError(AsyncEvent event) {
			this.observation.context().setError(unwrapServletException(event.getThrowable()));
		}

	}

}
