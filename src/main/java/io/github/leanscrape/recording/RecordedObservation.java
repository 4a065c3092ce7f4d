package io.github.leanscrape.recording;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * What an HTTP server request recorded without Micrometer's observation offers in its
 * place, on either stack ({@link RequestObservation},
 * {@link ReactiveRequestObservation}): what is asked of it goes into its context, from
 * which the request's meters are resolved at its end, as an observation's meter handler
 * would resolve them: key values, an error, a convention; an event is counted by the
 * starter's meter handler. It notifies no handler: it exists only where the starter's
 * meter handler is the only one ({@link ObservationBypassCheck}). Starting it again does
 * nothing; stopping it records the request as stopping an observation would.
 *
 * @param <C> the type of the request's context
 * @author leanscrape
 */
abstract class RecordedObservation<C extends Observation.Context> implements Observation {

	private final C context;

	/** Volatile: given on any thread that carries the observation, read at the end. */
	private volatile @Nullable ObservationConvention<Observation.Context> convention;

	RecordedObservation(C context) {
		this.context = context;
	}

	final C context() {
		return this.context;
	}

	/**
	 * Return the convention someone gave this observation during the request, which then
	 * decides its key values at its end, as it would an observation's.
	 * @return the convention, or {@code null}
	 */
	final @Nullable ObservationConvention<Observation.Context> convention() {
		return this.convention;
	}

	/**
	 * Return the starter's meter handler, which counts the events of the request.
	 * @return the handler
	 */
	abstract CachingMeterObservationHandler handler();

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
