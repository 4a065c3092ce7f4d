package io.github.leanscrape.recording;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import org.jspecify.annotations.Nullable;

/**
 * The meters of an observation, resolved through the registry exactly as Micrometer's
 * {@link DefaultMeterObservationHandler} resolves them: the same names, tags and
 * {@code error} tag, so that every meter filter applies as it would. Used on a cache
 * miss.
 *
 * @author leanscrape
 */
public final class DefaultHandlerMeters {

	private DefaultHandlerMeters() {
	}

	/**
	 * Resolve the {@code <name>.active} long task timer.
	 * @param registry the registry
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values at start
	 * @return the long task timer, a no-op one when a filter denies it
	 */
	public static LongTaskTimer longTaskTimer(MeterRegistry registry, @Nullable String name, KeyValues keyValues) {
		return registry.more().longTaskTimer(name + ".active", createTags(keyValues));
	}

	/**
	 * Resolve the timer.
	 * @param registry the registry
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values at stop
	 * @param error the {@code error} tag's value
	 * @return the timer, a no-op one when a filter denies it
	 */
	@SuppressWarnings("NullAway") // a null name fails as it does in the default handler
	public static Timer timer(MeterRegistry registry, @Nullable String name, KeyValues keyValues, String error) {
		List<Tag> tags = createTags(keyValues);
		tags.add(Tag.of("error", error));
		return registry.timer(name, tags);
	}

	public static List<Tag> createTags(KeyValues keyValues) {
		List<Tag> tags = new ArrayList<>();
		for (KeyValue keyValue : keyValues) {
			tags.add(Tag.of(keyValue.getKey(), keyValue.getValue()));
		}
		return tags;
	}

	/**
	 * Return the {@code error} tag's value of an observation.
	 * @param error the observation's error, if any
	 * @return the error's simple class name, or {@code none}
	 */
	public static String errorValue(@Nullable Throwable error) {
		// Class.getSimpleName() is cached by the JDK: no allocation after the first call.
		return (error != null) ? error.getClass().getSimpleName() : KeyValue.NONE_VALUE;
	}

}
