package io.github.leanscrape.recording;

import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopMeter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * The meters of HTTP server requests recorded without observations, on either stack:
 * resolved as Micrometer's default meter handler resolves them and kept in a
 * {@link ServerRequestCache} by what decides their tags (path pattern, method, status and
 * error class), unless something during the request changed the key values.
 *
 * @author leanscrape
 */
public final class ServerRequestMeters {

	/**
	 * The name of the counter of requests by the path they took, for either stack.
	 */
	public static final String REQUESTS_METER = "leanscrape.recording.requests";

	private final MeterRegistry meterRegistry;

	/** The convention's name, the only one whose meters are cached. */
	private final @Nullable String name;

	private final ServerRequestCache cache;

	/**
	 * Create a new instance and have meters removed from the registry leave the cache.
	 * @param meterRegistry the registry to record into
	 * @param name the name of the convention's observations
	 * @param maxCachedMeters the most meters to cache
	 */
	public ServerRequestMeters(MeterRegistry meterRegistry, @Nullable String name, int maxCachedMeters) {
		this.meterRegistry = meterRegistry;
		this.name = name;
		this.cache = new ServerRequestCache(maxCachedMeters);
		ServerRequestCache cache = this.cache;
		meterRegistry.config().onMeterRemoved(cache::evict);
	}

	/**
	 * Return the number of meters cached.
	 * @return the number of cached timers and long task timers
	 */
	public int size() {
		return this.cache.size();
	}

	/**
	 * Return the {@code .active} long task timer of a request just started: no pattern,
	 * no error, no key values added yet.
	 * @param <C> the type of context
	 * @param method the request's method index ({@link ServerRequestCache#methodIndex})
	 * @param status the response's status now
	 * @param convention the convention, asked for the key values on a miss
	 * @param context the request's context
	 * @return the long task timer
	 */
	public <C extends Observation.Context> LongTaskTimer longTaskTimer(int method, int status,
			ObservationConvention<C> convention, C context) {
		int hash = ServerRequestCache.hash(true, null, method, status, null);
		Object cached = this.cache.get(hash, true, null, method, status, null);
		if (cached != null) {
			return (LongTaskTimer) cached;
		}
		long removals = this.cache.removals();
		LongTaskTimer longTaskTimer = DefaultHandlerMeters.longTaskTimer(this.meterRegistry, this.name,
				convention.getLowCardinalityKeyValues(context));
		if (this.cache.hasRoom() && !(longTaskTimer instanceof NoopMeter)) {
			this.cache.put(hash, true, null, method, status, null, longTaskTimer, removals);
		}
		return longTaskTimer;
	}

	/**
	 * Return the timer of a request whose key values something changed during the
	 * request, as the observation's stop and the default handler would resolve it: a
	 * convention given during the request decides the key values in place of the
	 * request's, key values added to the context stay under the convention's, and a name
	 * given to the context names the timer. Such timers are not cached.
	 * @param <C> the type of context
	 * @param context the request's context
	 * @param keyValuesAdded whether low-cardinality key values were added to the context
	 * @param given the convention given during the request, if any
	 * @param convention the request's convention
	 * @return the timer, or {@code null} when nothing changed the key values: then
	 * {@link #timer} applies
	 */
	public <C extends Observation.Context> @Nullable Timer changedTimer(C context, boolean keyValuesAdded,
			@Nullable ObservationConvention<Observation.Context> given, ObservationConvention<C> convention) {
		// The name is the context's at the end, as the default handler reads it.
		String contextName = context.getName();
		String name = (contextName != null) ? contextName : this.name;
		if (given == null && !keyValuesAdded && name != null && name.equals(this.name)) {
			return null;
		}
		// What the observation does at its stop: the convention's key values over those
		// already in the context.
		context.addLowCardinalityKeyValues((given != null) ? given.getLowCardinalityKeyValues(context)
				: convention.getLowCardinalityKeyValues(context));
		return DefaultHandlerMeters.timer(this.meterRegistry, name, context.getLowCardinalityKeyValues(),
				DefaultHandlerMeters.errorValue(context.getError()));
	}

	/**
	 * Return the timer of a request whose key values are the convention's alone.
	 * @param <C> the type of context
	 * @param pattern the path pattern
	 * @param method the request's method index ({@link ServerRequestCache#methodIndex})
	 * @param status the response's status
	 * @param convention the request's convention, asked for the key values on a miss
	 * @param context the request's context
	 * @return the timer
	 */
	public <C extends Observation.Context> Timer timer(@Nullable String pattern, int method, int status,
			ObservationConvention<C> convention, C context) {
		Throwable error = context.getError();
		Class<?> errorType = (error != null) ? error.getClass() : null;
		int hash = ServerRequestCache.hash(false, pattern, method, status, errorType);
		Object cached = this.cache.get(hash, false, pattern, method, status, errorType);
		if (cached != null) {
			return (Timer) cached;
		}
		long removals = this.cache.removals();
		// The error read once: the timer's tag is that of the error it is cached by.
		Timer timer = DefaultHandlerMeters.timer(this.meterRegistry, this.name,
				convention.getLowCardinalityKeyValues(context), DefaultHandlerMeters.errorValue(error));
		if (this.cache.hasRoom() && !(timer instanceof NoopMeter)) {
			this.cache.put(hash, false, pattern, method, status, errorType, timer, removals);
		}
		return timer;
	}

	/**
	 * Resolve the timer of a request whose key values are the convention's alone, without
	 * the cache.
	 * @param <C> the type of context
	 * @param convention the request's convention
	 * @param context the request's context
	 * @return the timer
	 */
	public <C extends Observation.Context> Timer uncachedTimer(ObservationConvention<C> convention, C context) {
		return DefaultHandlerMeters.timer(this.meterRegistry, this.name, convention.getLowCardinalityKeyValues(context),
				DefaultHandlerMeters.errorValue(context.getError()));
	}

	/**
	 * Register the count of requests that took one path, for either stack.
	 * @param meterRegistry the registry
	 * @param path {@code direct} or {@code observation}
	 * @param requests the count
	 */
	public static void registerRequestsCounter(MeterRegistry meterRegistry, String path, LongAdder requests) {
		FunctionCounter.builder(REQUESTS_METER, requests, LongAdder::sum)
			.description("Requests recorded in http.server.requests, by the path they took: direct (without "
					+ "Micrometer's observation) or observation")
			.tag("path", path)
			.register(meterRegistry);
	}

}
