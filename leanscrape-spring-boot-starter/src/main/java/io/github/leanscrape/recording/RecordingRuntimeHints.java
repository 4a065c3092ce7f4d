package io.github.leanscrape.recording;

import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Registers for reflection, in a native image, what request recording reads of
 * Micrometer's observation internals: the context's map of low-cardinality key values
 * ({@link ContextKeyValues}; the type only, not its subclasses), the registry
 * configuration's handlers, filters and predicates ({@link ObservationBypassCheck}) and
 * the constructor of Micrometer's observation scope ({@link SimpleScopes}). Without them,
 * recording uses the public copies and keeps every observation.
 * {@code recording.reactive} registers its own.
 *
 * @author leanscrape
 */
class RecordingRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection()
			.registerType(Observation.Context.class, (type) -> type.withField(ContextKeyValues.LOW_CARDINALITY_FIELD));
		hints.reflection()
			.registerType(ObservationRegistry.ObservationConfig.class,
					(type) -> type.withField(ObservationBypassCheck.HANDLERS)
						.withField(ObservationBypassCheck.FILTERS)
						.withField(ObservationBypassCheck.PREDICATES));
		hints.reflection()
			.registerType(TypeReference.of(SimpleScopes.SIMPLE_SCOPE),
					(type) -> type.withConstructor(
							List.of(TypeReference.of(ObservationRegistry.class), TypeReference.of(Observation.class)),
							ExecutableMode.INVOKE));
	}

}
