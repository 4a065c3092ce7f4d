package io.github.leanscrape.recording.reactive;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The observation registry Spring WebFlux's HTTP handler adapter is given while its
 * requests are recorded without Micrometer's observation: the application's registry,
 * with the same current observation and configuration, except that it reports itself
 * no-op, so that the adapter makes no observation of its own (the starter's
 * {@link ReactiveRequestObservation} takes its place).
 *
 * @author leanscrape
 */
public final class BypassedObservationRegistry implements ObservationRegistry {

	private final ObservationRegistry registry;

	BypassedObservationRegistry(ObservationRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Return the registry this one stands for.
	 * @return the application's registry
	 */
	public ObservationRegistry registry() {
		return this.registry;
	}

	@Override
	public @Nullable Observation getCurrentObservation() {
		return this.registry.getCurrentObservation();
	}

	@Override
	public Observation.@Nullable Scope getCurrentObservationScope() {
		return this.registry.getCurrentObservationScope();
	}

	@Override
	public void setCurrentObservationScope(Observation.@Nullable Scope current) {
		this.registry.setCurrentObservationScope(current);
	}

	@Override
	public ObservationConfig observationConfig() {
		return this.registry.observationConfig();
	}

	@Override
	public boolean isNoop() {
		return true;
	}

	@Override
	public String toString() {
		return "no-op for requests recorded without observations: " + this.registry;
	}

}
