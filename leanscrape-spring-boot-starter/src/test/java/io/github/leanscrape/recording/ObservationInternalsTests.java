package io.github.leanscrape.recording;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Micrometer observation API on the class path is one that request recording knows:
 * what it reads by reflection is where it expects it, and is registered for native
 * images. Run on every version of the build's matrix, these fail loudly where recording
 * would otherwise fall back to the public copies in silence.
 */
class ObservationInternalsTests {

	private static final String VERSION = "Micrometer " + Observation.class.getPackage().getImplementationVersion();

	@Test
	void theContextsKeyValuesAreReadWithoutACopy() {
		assertThat(ContextKeyValues.isAvailable())
			.as("Observation.Context.%s in %s", ContextKeyValues.LOW_CARDINALITY_FIELD, VERSION)
			.isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { ObservationBypassCheck.HANDLERS, ObservationBypassCheck.FILTERS,
			ObservationBypassCheck.PREDICATES })
	void theRegistrysConfigurationIsRead(String field) {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler((context) -> true);
		assertThat(ObservationBypassCheck.read(registry.observationConfig(), field))
			.as("ObservationConfig.%s in %s", field, VERSION)
			.isNotNull();
	}

	@Test
	void whatIsReadIsRegisteredForReflectionInNativeImages() {
		RuntimeHints hints = new RuntimeHints();
		new RecordingRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection()
			.onFieldAccess(Observation.Context.class, ContextKeyValues.LOW_CARDINALITY_FIELD)).accepts(hints);
		for (String field : new String[] { ObservationBypassCheck.HANDLERS, ObservationBypassCheck.FILTERS,
				ObservationBypassCheck.PREDICATES }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onFieldAccess(ObservationRegistry.ObservationConfig.class, field)).accepts(hints);
		}
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).anyMatch(RecordingRuntimeHints.class::isInstance);
	}

}
