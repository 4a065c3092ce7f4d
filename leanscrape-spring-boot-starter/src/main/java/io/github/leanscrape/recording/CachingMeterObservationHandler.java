package io.github.leanscrape.recording;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopMeter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MeterObservationHandler} that records the same meters as Micrometer's
 * {@link DefaultMeterObservationHandler}, resolving them once per combination of
 * observation name, low-cardinality key values and (for the timer) error value, then
 * recording into the cached meters. A miss calls the registry as the default handler
 * does, so names, tags and meter filters apply as they would.
 * <p>
 * Denied meters are never cached; the cache is bounded. A meter filter added after a
 * meter was cached does not apply to it: call {@link #clearCache()} after adding one.
 *
 * @author leanscrape
 */
public final class CachingMeterObservationHandler implements MeterObservationHandler<Observation.Context> {

	private final MeterRegistry meterRegistry;

	private final Clock clock;

	private final boolean longTaskTimers;

	private final ObservationMeterCache cache;

	private final boolean readContextInternals;

	/**
	 * Create a new instance.
	 * @param meterRegistry the registry to record into
	 * @param maxCachedMeters the most meters to cache (timers and long task timers)
	 * @param metersToIgnore the meters not to create, as for the default handler
	 */
	public CachingMeterObservationHandler(MeterRegistry meterRegistry, int maxCachedMeters,
			IgnoredMeters... metersToIgnore) {
		this(meterRegistry, maxCachedMeters, ContextKeyValues.isAvailable(), metersToIgnore);
	}

	CachingMeterObservationHandler(MeterRegistry meterRegistry, int maxCachedMeters, boolean readContextInternals,
			IgnoredMeters... metersToIgnore) {
		this.readContextInternals = readContextInternals;
		this.meterRegistry = meterRegistry;
		this.clock = meterRegistry.config().clock();
		this.longTaskTimers = !contains(metersToIgnore, IgnoredMeters.LONG_TASK_TIMER);
		this.cache = new ObservationMeterCache(maxCachedMeters);
		ObservationMeterCache cache = this.cache;
		meterRegistry.config().onMeterRemoved(cache::evict);
	}

	private static boolean contains(IgnoredMeters[] metersToIgnore, IgnoredMeters ignored) {
		for (IgnoredMeters each : metersToIgnore) {
			if (each == ignored) {
				return true;
			}
		}
		return false;
	}

	@Override
	public void onStart(Observation.Context context) {
		// Same order of clock reads as the default handler: the long task first, then the
		// timer's start.
		LongTaskTimer.@Nullable Sample longTask = null;
		if (this.longTaskTimers) {
			longTask = longTaskTimer(context).start();
		}
		context.put(Recording.class, new Recording(this.clock.monotonicTime(), longTask));
	}

	@Override
	public void onStop(Observation.Context context) {
		Recording recording = context.getRequired(Recording.class);
		Timer timer = timer(context);
		timer.record(this.clock.monotonicTime() - recording.startTime, TimeUnit.NANOSECONDS);
		LongTaskTimer.Sample longTask = recording.longTask;
		if (longTask != null) {
			longTask.stop();
		}
	}

	@Override
	public void onEvent(Observation.Event event, Observation.Context context) {
		Counter.builder(context.getName() + "." + event.getName())
			.tags(DefaultHandlerMeters.createTags(context.getLowCardinalityKeyValues()))
			.register(this.meterRegistry)
			.increment();
	}

	/**
	 * Forget every cached meter. The next observation of each combination resolves its
	 * meters through the registry again, applying meter filters added since.
	 */
	public void clearCache() {
		this.cache.clear();
	}

	/**
	 * Return the number of meters cached.
	 * @return the number of cached timers and long task timers
	 */
	public int cachedMeterCount() {
		return this.cache.size();
	}

	private LongTaskTimer longTaskTimer(Observation.Context context) {
		String name = context.getName();
		Meter found = find(context, name, null);
		if (found != null) {
			return (LongTaskTimer) found;
		}
		KeyValues keyValues = context.getLowCardinalityKeyValues();
		if (name == null) {
			return resolveLongTaskTimer(name, keyValues);
		}
		int hash = ObservationMeterCache.hash(name, keyValues, null);
		Meter cached = this.cache.get(hash, name, keyValues, null);
		if (cached != null) {
			return (LongTaskTimer) cached;
		}
		if (!this.cache.hasRoom()) {
			return resolveLongTaskTimer(name, keyValues);
		}
		long removals = this.cache.removals();
		LongTaskTimer longTaskTimer = resolveLongTaskTimer(name, keyValues);
		if (!(longTaskTimer instanceof NoopMeter)) {
			this.cache.put(hash, name, keyValues, null, longTaskTimer, removals);
		}
		return longTaskTimer;
	}

	private Timer timer(Observation.Context context) {
		String name = context.getName();
		String error = errorValue(context);
		Meter found = find(context, name, error);
		if (found != null) {
			return (Timer) found;
		}
		KeyValues keyValues = context.getLowCardinalityKeyValues();
		if (name == null) {
			return resolveTimer(name, keyValues, error);
		}
		int hash = ObservationMeterCache.hash(name, keyValues, error);
		Meter cached = this.cache.get(hash, name, keyValues, error);
		if (cached != null) {
			return (Timer) cached;
		}
		if (!this.cache.hasRoom()) {
			return resolveTimer(name, keyValues, error);
		}
		long removals = this.cache.removals();
		Timer timer = resolveTimer(name, keyValues, error);
		if (!(timer instanceof NoopMeter)) {
			this.cache.put(hash, name, keyValues, error, timer, removals);
		}
		return timer;
	}

	/**
	 * Find a cached meter from the context's own map of key values, without copying them.
	 * A miss (or a context whose map cannot be read) falls through to the public copy.
	 * @param context the observation's context
	 * @param name the observation name
	 * @param error the {@code error} tag's value, or {@code null} for a long task timer
	 * @return the cached meter, or {@code null}
	 */
	private @Nullable Meter find(Observation.Context context, @Nullable String name, @Nullable String error) {
		if (!this.readContextInternals || name == null) {
			return null;
		}
		Map<String, KeyValue> keyValues = ContextKeyValues.lowCardinality(context);
		return (keyValues != null) ? this.cache.find(name, keyValues, error) : null;
	}

	/**
	 * Resolve the long task timer exactly as {@link DefaultMeterObservationHandler} does.
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values at start
	 * @return the long task timer
	 */
	private LongTaskTimer resolveLongTaskTimer(@Nullable String name, KeyValues keyValues) {
		return DefaultHandlerMeters.longTaskTimer(this.meterRegistry, name, keyValues);
	}

	/**
	 * Resolve the timer exactly as {@link DefaultMeterObservationHandler} does.
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values at stop
	 * @param error the {@code error} tag's value
	 * @return the timer
	 */
	private Timer resolveTimer(@Nullable String name, KeyValues keyValues, String error) {
		return DefaultHandlerMeters.timer(this.meterRegistry, name, keyValues, error);
	}

	private static String errorValue(Observation.Context context) {
		return DefaultHandlerMeters.errorValue(context.getError());
	}

	/**
	 * What a started observation needs at its stop: one context entry where the default
	 * handler puts two (a {@code Timer.Sample} and a {@code LongTaskTimer.Sample}).
	 */
	private static final class Recording {

		final long startTime;

		final LongTaskTimer.@Nullable Sample longTask;

		Recording(long startTime, LongTaskTimer.@Nullable Sample longTask) {
			this.startTime = startTime;
			this.longTask = longTask;
		}

	}

}
