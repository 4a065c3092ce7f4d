package io.github.leanscrape.exposition.direct;

import java.lang.reflect.Field;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The reflective reads of Micrometer's and client_java's internals, in one place. Each
 * fails safe: a field or class that is not where it was expected (another version) gives
 * {@code null}, logged at debug level with what follows from it, and the caller sends the
 * work concerned to the reference path.
 *
 * @author leanscrape
 */
final class Reflection {

	private static final Log logger = LogFactory.getLog(Reflection.class);

	private Reflection() {
	}

	/**
	 * Return a declared field, made accessible.
	 * @param owner the class that declares it
	 * @param name its name
	 * @param consequence what follows when it is missing, for the log
	 * @return the field, or {@code null} when it cannot be read
	 */
	static @Nullable Field field(Class<?> owner, String name, String consequence) {
		try {
			Field field = owner.getDeclaredField(name);
			field.setAccessible(true);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Cannot read " + owner.getName() + "." + name + "; " + consequence, ex);
			return null;
		}
	}

	/**
	 * Return the value of a field.
	 * @param field the field, or {@code null}
	 * @param target the object to read it from, or {@code null}
	 * @return the value, or {@code null} when it cannot be read
	 */
	static @Nullable Object get(@Nullable Field field, @Nullable Object target) {
		if (field == null || target == null) {
			return null;
		}
		try {
			return field.get(target);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Return a class of Micrometer's Prometheus registry that is not public.
	 * @param simpleName the class's name in {@code io.micrometer.prometheusmetrics}
	 * @param consequence what follows when it is missing, for the log
	 * @return the class, or {@code null} when it cannot be found
	 */
	static @Nullable Class<?> micrometerClass(String simpleName, String consequence) {
		String name = "io.micrometer.prometheusmetrics." + simpleName;
		try {
			return Class.forName(name, false, PrometheusMeterRegistry.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			logger.debug("Cannot find " + name + "; " + consequence, ex);
			return null;
		}
	}

}
