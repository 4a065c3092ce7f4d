package io.github.leanscrape.recording;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.internal.DefaultLongTaskTimer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * What an HTTP server request recorded without Micrometer's observation offers in its
 * place, on either stack ({@code RequestObservation},
 * {@code ReactiveRequestObservation}): key values, an error or a convention go into its
 * context, from which the request's meters are resolved at its end as a meter handler
 * would; an event is counted by the starter's meter handler. It notifies no handler
 * ({@link ObservationBypassCheck}). Starting it again does nothing; stopping it records
 * the request as stopping an observation would.
 *
 * @param <C> the type of the request's context
 * @author leanscrape
 */
public abstract class RecordedObservation<C extends Observation.Context> implements Observation {

	private final C context;

	/** Volatile: given on any thread that carries the observation, read at the end. */
	private volatile @Nullable ObservationConvention<Observation.Context> convention;

	// The request's timing, as the default meter handler's samples hold it. Written
	// before the request runs, and published to the threads that stop it with the
	// request itself (Spring MVC's asynchronous dispatch, Reactor's signals, the
	// volatile end of a WebFlux request). Stops take turns: the request's end and a stop
	// of the application's may come at once, on two threads.

	/** The clock gives the duration: read at the start and at each stop. */
	private static final int TIMED_BY_CLOCK = 0;

	/** The long task's sample gives the duration when it stops. */
	private static final int TIMED_BY_LONG_TASK = 1;

	/** Ended, timed by the long task, whose sample no longer measures anything. */
	private static final int ENDED_BY_LONG_TASK = 2;

	private int timing;

	/**
	 * Timed by the clock, its time at the start; ended by the long task, the duration its
	 * sample gave.
	 */
	private long startTimeOrDuration;

	private LongTaskTimer.@Nullable Sample longTask;

	protected RecordedObservation(C context) {
		this.context = context;
	}

	public final C context() {
		return this.context;
	}

	/**
	 * Return the convention someone gave this observation during the request, which then
	 * decides its key values at its end, as it would an observation's.
	 * @return the convention, or {@code null}
	 */
	public final @Nullable ObservationConvention<Observation.Context> convention() {
		return this.convention;
	}

	/**
	 * Start timing the request as the default meter handler does: its long task first, if
	 * recorded, then its clock. A sample of Micrometer's own long task timer reads the
	 * registry's clock when it starts and when it stops, and its stop returns the time
	 * between, in nanoseconds: then that is the request's duration, and the clock (as
	 * dear as a system call on some virtual machines) is read twice less per request. The
	 * duration then also spans the sample's own insertion into and removal from the
	 * timer's active set, which the default handler's timer sample does not. Any other
	 * long task timer (a subclass, as some registries make, a composite registry's, a
	 * denied one) is only started.
	 * @param longTaskTimer the {@code .active} long task timer, or {@code null} when it
	 * is not recorded
	 * @param clock the registry's clock
	 */
	public final void startTiming(@Nullable LongTaskTimer longTaskTimer, Clock clock) {
		if (longTaskTimer != null) {
			this.longTask = longTaskTimer.start();
			// Exactly Micrometer's, made by the registry with its clock.
			if (longTaskTimer.getClass() == DefaultLongTaskTimer.class) {
				this.timing = TIMED_BY_LONG_TASK;
				return;
			}
		}
		this.startTimeOrDuration = clock.monotonicTime();
	}

	/**
	 * Stop timing the request, as the default meter handler's samples stop: return its
	 * duration so far and stop its long task, if recorded (once: a stopped sample of
	 * Micrometer's ignores a second stop).
	 * <p>
	 * An observation may be stopped more than once, and each stop records the time since
	 * the start: stopped by someone before the request's end (or at an asynchronous
	 * request's timeout, which its completion follows), the timing goes over to the clock
	 * from the same start, at the price of one read. A stop after the end, timed by the
	 * long task, records the end's duration again: the time of the end was never read.
	 * @param clock the registry's clock
	 * @param beforeEnd whether the request's end will stop it again
	 * @return the request's duration in nanoseconds
	 */
	public final synchronized long stopTiming(Clock clock, boolean beforeEnd) {
		LongTaskTimer.Sample longTask = this.longTask;
		if (this.timing == ENDED_BY_LONG_TASK) {
			return this.startTimeOrDuration;
		}
		if (this.timing == TIMED_BY_LONG_TASK && longTask != null) {
			long duration = longTask.stop();
			if (beforeEnd) {
				// The end stops it again: timed by the clock from the same start.
				this.startTimeOrDuration = clock.monotonicTime() - duration;
				this.timing = TIMED_BY_CLOCK;
			}
			else {
				this.startTimeOrDuration = duration;
				this.timing = ENDED_BY_LONG_TASK;
			}
			return duration;
		}
		long duration = clock.monotonicTime() - this.startTimeOrDuration;
		if (longTask != null) {
			longTask.stop();
		}
		return duration;
	}

	/**
	 * Return the starter's meter handler, which counts the events of the request.
	 * @return the handler
	 */
	protected abstract CachingMeterObservationHandler handler();

	@Override
	public final Observation contextualName(@Nullable String contextualName) {
		this.context.setContextualName(contextualName);
		return this;
	}

	@Override
	public final Observation parentObservation(@Nullable Observation parentObservation) {
		this.context.setParentObservation(parentObservation);
		return this;
	}

	@Override
	public final Observation lowCardinalityKeyValue(KeyValue keyValue) {
		this.context.addLowCardinalityKeyValue(keyValue);
		return this;
	}

	@Override
	public final Observation highCardinalityKeyValue(KeyValue keyValue) {
		this.context.addHighCardinalityKeyValue(keyValue);
		return this;
	}

	@Override
	@SuppressWarnings("unchecked")
	public final Observation observationConvention(ObservationConvention<?> convention) {
		if (convention.supportsContext(this.context)) {
			this.convention = (ObservationConvention<Observation.Context>) convention;
		}
		return this;
	}

	@Override
	public final Observation error(Throwable error) {
		this.context.setError(error);
		return this;
	}

	@Override
	public final Observation event(Event event) {
		handler().onEvent(event, this.context);
		return this;
	}

	@Override
	public final Observation start() {
		return this;
	}

	@Override
	public final Observation.Context getContext() {
		return this.context;
	}

	@Override
	public final Scope openScope() {
		return SimpleScopes.open(getObservationRegistry(), this);
	}

	@Override
	public final String toString() {
		return "{name=" + this.context.getName() + ", recorded without an observation, context=" + this.context + "}";
	}

}
