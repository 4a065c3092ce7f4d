package io.github.leanscrape.recording;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

/**
 * The key values and contextual name that a request observation convention derived, per
 * combination of path pattern, method, status and error class: the cache behind
 * {@code CachingServerRequestObservationConvention} and
 * {@code CachingReactiveServerRequestObservationConvention}. A lookup allocates nothing.
 *
 * @author leanscrape
 */
public final class DerivedKeyValuesCache {

	private final ServerRequestCache cache;

	public DerivedKeyValuesCache(int maxSize) {
		this.cache = new ServerRequestCache(maxSize);
	}

	/**
	 * Return what was derived for a combination, or {@code null} when it is not cached.
	 * @param pattern the path pattern
	 * @param method the method's {@link ServerRequestCache#methodIndex index}
	 * @param status the response status, as the convention keys it
	 * @param errorType the class of the error, if any
	 * @return what was derived, or {@code null}
	 */
	public @Nullable Derived get(@Nullable String pattern, int method, int status, @Nullable Class<?> errorType) {
		int hash = ServerRequestCache.hash(false, pattern, method, status, errorType);
		return (Derived) this.cache.get(hash, false, pattern, method, status, errorType);
	}

	public boolean hasRoom() {
		return this.cache.hasRoom();
	}

	/**
	 * Cache what the convention derived for a combination, and return it.
	 * @param pattern the path pattern
	 * @param method the method's {@link ServerRequestCache#methodIndex index}
	 * @param status the response status, as the convention keys it
	 * @param errorType the class of the error, if any
	 * @param lowCardinalityKeyValues the convention's low-cardinality key values
	 * @param contextualName the convention's contextual name
	 * @return what was derived
	 */
	public Derived put(@Nullable String pattern, int method, int status, @Nullable Class<?> errorType,
			KeyValues lowCardinalityKeyValues, @Nullable String contextualName) {
		Derived derived = new Derived(lowCardinalityKeyValues, contextualName);
		int hash = ServerRequestCache.hash(false, pattern, method, status, errorType);
		this.cache.put(hash, false, pattern, method, status, errorType, derived, this.cache.removals());
		return derived;
	}

	public int size() {
		return this.cache.size();
	}

	/**
	 * What a convention derived for one combination.
	 */
	public static final class Derived {

		final KeyValues lowCardinalityKeyValues;

		/** As the convention returned it: nullable in Spring's declaration. */
		final @Nullable String contextualName;

		public Derived(KeyValues lowCardinalityKeyValues, @Nullable String contextualName) {
			this.lowCardinalityKeyValues = lowCardinalityKeyValues;
			this.contextualName = contextualName;
		}

		/**
		 * Return the low-cardinality key values derived.
		 * @return the key values
		 */
		public KeyValues lowCardinalityKeyValues() {
			return this.lowCardinalityKeyValues;
		}

		/**
		 * Return the contextual name derived.
		 * @return the name, or {@code null}
		 */
		public @Nullable String contextualName() {
			return this.contextualName;
		}

	}

}
