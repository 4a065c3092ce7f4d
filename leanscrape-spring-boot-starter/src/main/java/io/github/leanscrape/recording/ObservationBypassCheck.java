package io.github.leanscrape.recording;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether an HTTP server request may be recorded without an {@link Observation}:
 * only when it would reach nothing but the starter's meter handler, with exactly the key
 * values of Spring's default convention. Handlers, filters and predicates are read by
 * reflection; anything unreadable or not known to be harmless keeps the observation.
 * <p>
 * Harmless: the starter's handler alone or first in a first-matching composite; no filter
 * or predicate but Spring Boot's properties filter adding no key values; Spring's default
 * request convention or the starter's caching one, on either stack.
 *
 * @author leanscrape
 */
public final class ObservationBypassCheck {

	/** Spring Boot's filter and predicate from {@code management.observations.*}. */
	private static final String SPRING_BOOT_PROPERTIES_FILTER = "org.springframework.boot.micrometer.observation.autoconfigure.PropertiesObservationFilterPredicate";

	/**
	 * The private fields of the registry's configuration read here: its handlers, filters
	 * and predicates, which the configuration has no public accessors for.
	 */
	static final String HANDLERS = "observationHandlers";

	static final String FILTERS = "observationFilters";

	static final String PREDICATES = "observationPredicates";

	/**
	 * The conventions whose key values are Spring's defaults, by name: a Spring WebFlux
	 * application may have no servlet API to load Spring MVC's with, and the other way
	 * round.
	 */
	private static final List<String> KNOWN_CONVENTIONS = List.of(
			"org.springframework.http.server.observation.DefaultServerRequestObservationConvention",
			"io.github.leanscrape.recording.servlet.CachingServerRequestObservationConvention",
			"org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention",
			"io.github.leanscrape.recording.reactive.CachingReactiveServerRequestObservationConvention");

	/** What {@code ObservationRegistry.create()} returns; its class is not public. */
	private static final String SIMPLE_REGISTRY = "io.micrometer.observation.SimpleObservationRegistry";

	private ObservationBypassCheck() {
	}

	/**
	 * Return why requests must keep their observation, or {@code null} when they may be
	 * recorded without observations.
	 * @param registry the observation registry the requests would be observed in
	 * @param handler the starter's meter handler
	 * @param convention the convention of the request observations, Spring MVC's or
	 * Spring WebFlux's
	 * @return the reason, or {@code null}
	 */
	public static @Nullable String whyNot(ObservationRegistry registry, ObservationHandler<?> handler,
			ObservationConvention<?> convention) {
		if (!isKnownConvention(convention.getClass())) {
			return "a custom ServerRequestObservationConvention (" + convention.getClass().getName() + ") is used";
		}
		if (!SimpleScopes.available()) {
			return "Micrometer's observation scope (" + SimpleScopes.SIMPLE_SCOPE + ") cannot be opened";
		}
		if (!registry.getClass().getName().equals(SIMPLE_REGISTRY) || registry.isNoop()) {
			return "the observation registry is not Micrometer's simple registry with handlers";
		}
		ObservationRegistry.ObservationConfig config = registry.observationConfig();
		List<?> handlers = read(config, HANDLERS);
		List<?> filters = read(config, FILTERS);
		List<?> predicates = read(config, PREDICATES);
		if (handlers == null || filters == null || predicates == null) {
			return "the observation registry's handlers, filters and predicates cannot be read";
		}
		if (handlers.size() != 1 || !startsWith(handlers.get(0), handler)) {
			return "observation handlers other than the starter's meter handler are registered " + handlers;
		}
		String name = convention.getName();
		if (name == null) {
			return "the ServerRequestObservationConvention names no observation";
		}
		Observation.Context probe = new Observation.Context();
		for (Object filter : filters) {
			if (!isSpringBootPropertiesFilter(filter)) {
				return "an ObservationFilter is registered (" + filter.getClass().getName() + ")";
			}
			((ObservationFilter) filter).map(probe);
			if (probe.getLowCardinalityKeyValues().iterator().hasNext()
					|| probe.getHighCardinalityKeyValues().iterator().hasNext()) {
				return "management.observations.key-values adds key values";
			}
		}
		for (Object predicate : predicates) {
			if (!isSpringBootPropertiesFilter(predicate)) {
				return "an ObservationPredicate is registered (" + predicate.getClass().getName() + ")";
			}
			if (!((ObservationPredicate) predicate).test(name, probe)) {
				return "management.observations.enable turns " + name + " off";
			}
		}
		return null;
	}

	private static boolean isKnownConvention(Class<?> type) {
		return KNOWN_CONVENTIONS.contains(type.getName());
	}

	private static boolean startsWith(Object registered, ObservationHandler<?> handler) {
		if (registered == handler) {
			return true;
		}
		if (registered instanceof FirstMatchingCompositeObservationHandler composite) {
			List<ObservationHandler<Observation.Context>> handlers = composite.getHandlers();
			return !handlers.isEmpty() && handlers.get(0) == handler;
		}
		return false;
	}

	private static boolean isSpringBootPropertiesFilter(Object candidate) {
		return candidate.getClass().getName().equals(SPRING_BOOT_PROPERTIES_FILTER);
	}

	/**
	 * Read one of the configuration's collections.
	 * @param config the configuration
	 * @param fieldName the field
	 * @return a copy of the collection, or {@code null} when it cannot be read
	 */
	public static @Nullable List<?> read(ObservationRegistry.ObservationConfig config, String fieldName) {
		try {
			Field field = ObservationRegistry.ObservationConfig.class.getDeclaredField(fieldName);
			field.setAccessible(true);
			Object value = field.get(config);
			return (value instanceof Collection<?> collection) ? List.copyOf(collection) : null;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			// A LinkageError too: a native image without the reflection hint throws one.
			return null;
		}
	}

}
