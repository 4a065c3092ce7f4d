package io.github.leanscrape.recording;

import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;

/**
 * A bounded map from what decides the meters of one HTTP server request under Spring's
 * {@code DefaultServerRequestObservationConvention} (path pattern, method, status and
 * error class) to the meter the registry returned for them.
 * <p>
 * Those four values determine every low-cardinality key value the convention derives
 * ({@code exception}, {@code method}, {@code outcome}, {@code status}, {@code uri}) and
 * the handler's {@code error} tag, so a request that matches an entry has the entry's
 * tags, without deriving them. A lookup compares the four fields and allocates nothing.
 * <p>
 * The long task timer, resolved at the start of a request (no pattern and no error yet),
 * has entries of its own, told apart by {@code longTask}.
 *
 * @author leanscrape
 */
final class ServerRequestMeterCache {

	private final MeterTable table;

	ServerRequestMeterCache(int maxSize) {
		this.table = new MeterTable(maxSize);
	}

	static int hash(boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		int hash = (pattern != null) ? pattern.hashCode() : 0;
		hash = 31 * hash + method;
		hash = 31 * hash + status;
		hash = 31 * hash + ((errorType != null) ? errorType.hashCode() : 0);
		hash = 31 * hash + (longTask ? 1 : 0);
		return hash ^ (hash >>> 16);
	}

	@Nullable Meter get(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		MeterTable.@Nullable Entry[] entries = this.table.entries();
		int mask = entries.length - 1;
		int index = hash & mask;
		MeterTable.Entry entry;
		while ((entry = entries[index]) != null) {
			if (entry.hash == hash && ((Entry) entry).matches(longTask, pattern, method, status, errorType)) {
				return entry.meter;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	boolean hasRoom() {
		return this.table.hasRoom();
	}

	long removals() {
		return this.table.removals();
	}

	void put(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType, Meter meter, long removalsBefore) {
		this.table.put(new Entry(hash, longTask, pattern, method, status, errorType, meter), removalsBefore);
	}

	void evict(Meter meter) {
		this.table.evict(meter);
	}

	int size() {
		return this.table.size();
	}

	private static final class Entry extends MeterTable.Entry {

		final boolean longTask;

		final @Nullable String pattern;

		final int method;

		final int status;

		final @Nullable Class<?> errorType;

		Entry(int hash, boolean longTask, @Nullable String pattern, int method, int status,
				@Nullable Class<?> errorType, Meter meter) {
			super(hash, meter);
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
		boolean sameKey(MeterTable.Entry other) {
			Entry entry = (Entry) other;
			return matches(entry.longTask, entry.pattern, entry.method, entry.status, entry.errorType);
		}

	}

}
