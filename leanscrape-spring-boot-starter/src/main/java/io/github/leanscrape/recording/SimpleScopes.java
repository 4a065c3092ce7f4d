package io.github.leanscrape.recording;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Opens Micrometer's own scope ({@code SimpleObservation.SimpleScope}) for an observation
 * that is not Micrometer's ({@code RequestObservation}): Micrometer's scopes cast the
 * scopes below them to their own class, so a scope of the starter's class would not do.
 * The constructor is not public and is found once, by a private lookup; where it cannot
 * be, requests keep their observation.
 *
 * @author leanscrape
 */
public final class SimpleScopes {

	/** Micrometer's scope class, not public. */
	static final String SIMPLE_SCOPE = "io.micrometer.observation.SimpleObservation$SimpleScope";

	private static final @Nullable MethodHandle CONSTRUCTOR = find();

	private SimpleScopes() {
	}

	private static @Nullable MethodHandle find() {
		try {
			Class<?> type = Class.forName(SIMPLE_SCOPE, false, Observation.class.getClassLoader());
			MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
			MethodHandle constructor = lookup.findConstructor(type,
					MethodType.methodType(void.class, ObservationRegistry.class, Observation.class));
			return constructor
				.asType(MethodType.methodType(Observation.Scope.class, ObservationRegistry.class, Observation.class));
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/**
	 * Return whether scopes can be opened.
	 * @return {@code false} when Micrometer's scope could not be found
	 */
	public static boolean available() {
		return CONSTRUCTOR != null;
	}

	/**
	 * Open a scope for an observation: the registry's current scope until it is closed.
	 * @param registry the registry
	 * @param observation the observation
	 * @return the scope
	 */
	public static Observation.Scope open(ObservationRegistry registry, Observation observation) {
		MethodHandle constructor = CONSTRUCTOR;
		if (constructor == null) {
			throw new IllegalStateException("Micrometer's observation scope was not found");
		}
		try {
			return (Observation.Scope) constructor.invokeExact(registry, observation);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

}
