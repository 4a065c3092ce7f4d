package io.github.leanscrape.recording;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;

/**
 * A bounded map from what decides the key values of one HTTP server request under
 * Spring's {@code DefaultServerRequestObservationConvention} (path pattern, method,
 * status and error class) to what was resolved from them: the meter the registry returned
 * (for {@code ServerRequestMetricsFilter}) or the key values (for the request observation
 * conventions, through {@link DerivedKeyValuesCache}). The four values determine every
 * key value and the {@code error} tag; a lookup compares them and allocates nothing. The
 * long task timer, resolved at the start, has entries of its own ({@code longTask}).
 *
 * @author leanscrape
 */
public final class ServerRequestCache {

	/** The method names the convention keeps; any other is {@code UNKNOWN}. */
	private static final String[] METHODS = methodNames();

	/** The index of every method the convention reports as {@code UNKNOWN}. */
	public static final int UNKNOWN_METHOD = -1;

	private final CacheTable table;

	public ServerRequestCache(int maxSize) {
		this.table = new CacheTable(maxSize);
	}

	public static int hash(boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		int hash = (pattern != null) ? pattern.hashCode() : 0;
		hash = 31 * hash + method;
		hash = 31 * hash + status;
		hash = 31 * hash + ((errorType != null) ? errorType.hashCode() : 0);
		hash = 31 * hash + (longTask ? 1 : 0);
		return hash ^ (hash >>> 16);
	}

	/**
	 * Return the index of a method the convention keeps as it is, or
	 * {@link #UNKNOWN_METHOD}: requests of unknown methods all have the same key values.
	 * @param method the request's method
	 * @return the index to key by
	 */
	public static int methodIndex(String method) {
		for (int i = 0; i < METHODS.length; i++) {
			if (METHODS[i].equals(method)) {
				return i;
			}
		}
		return UNKNOWN_METHOD;
	}

	private static String[] methodNames() {
		HttpMethod[] methods = HttpMethod.values();
		String[] names = new String[methods.length];
		for (int i = 0; i < methods.length; i++) {
			names[i] = methods[i].name();
		}
		return names;
	}

	public @Nullable Object get(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		CacheTable.@Nullable Entry[] entries = this.table.entries();
		int mask = entries.length - 1;
		int index = hash & mask;
		CacheTable.Entry entry;
		while ((entry = entries[index]) != null) {
			if (entry.hash == hash && ((Entry) entry).matches(longTask, pattern, method, status, errorType)) {
				return entry.value;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	public boolean hasRoom() {
		return this.table.hasRoom();
	}

	public long removals() {
		return this.table.removals();
	}

	public void put(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType, Object value, long removalsBefore) {
		this.table.put(new Entry(hash, longTask, pattern, method, status, errorType, value), removalsBefore);
	}

	public void evict(Object value) {
		this.table.evict(value);
	}

	public int size() {
		return this.table.size();
	}

	private static final class Entry extends CacheTable.Entry {

		final boolean longTask;

		final @Nullable String pattern;

		final int method;

		final int status;

		final @Nullable Class<?> errorType;

		Entry(int hash, boolean longTask, @Nullable String pattern, int method, int status,
				@Nullable Class<?> errorType, Object value) {
			super(hash, value);
			this.longTask = longTask;
			this.pattern = pattern;
			this.method = method;
			this.status = status;
			this.errorType = errorType;
		}

		boolean matches(boolean longTask, @Nullable String pattern, int method, int status,
				@Nullable Class<?> errorType) {
			return this.longTask == longTask && this.method == method && this.status == status
					&& this.errorType == errorType
					&& ((pattern != null) ? pattern.equals(this.pattern) : this.pattern == null);
		}

		@Override
		public boolean sameKey(CacheTable.Entry other) {
			Entry entry = (Entry) other;
			return matches(entry.longTask, entry.pattern, entry.method, entry.status, entry.errorType);
		}

	}

}
