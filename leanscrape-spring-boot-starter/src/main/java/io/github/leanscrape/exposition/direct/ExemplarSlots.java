package io.github.leanscrape.exposition.direct;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.util.TimeUtils;
import io.prometheus.metrics.model.snapshots.Exemplar;
import org.jspecify.annotations.Nullable;

/**
 * Where the exemplars of one meter live: the slot arrays of the client_java sampler
 * inside Micrometer's meter, found once when the meter is added and read in place at each
 * scrape, with no list or snapshot per meter. The rules are those of {@code collect()}
 * and of client_java's OpenMetrics writer: custom exemplars first, then sampled ones, as
 * many as the slots, none older than the retention. Each slot is read once per decision,
 * so a scrape sees every exemplar whole.
 *
 * @author leanscrape
 */
final class ExemplarSlots {

	private final @Nullable Exemplar[] custom;

	private final @Nullable Exemplar[] sampled;

	private final long maxRetentionMillis;

	private final boolean nanoseconds;

	/**
	 * Create the slots of one sampler.
	 * @param custom its custom exemplars
	 * @param sampled its sampled exemplars, one slot per bucket for a histogram
	 * @param maxRetentionMillis how long an exemplar is kept
	 * @param nanoseconds whether values are recorded in nanoseconds (a timer) and written
	 * in seconds
	 */
	ExemplarSlots(@Nullable Exemplar[] custom, @Nullable Exemplar[] sampled, long maxRetentionMillis,
			boolean nanoseconds) {
		this.custom = custom;
		this.sampled = sampled;
		this.maxRetentionMillis = maxRetentionMillis;
		this.nanoseconds = nanoseconds;
	}

	/**
	 * Return the value of an exemplar as it is written.
	 * @param exemplar the exemplar
	 * @return its value, in seconds for a timer
	 */
	double value(Exemplar exemplar) {
		double value = exemplar.getValue();
		return this.nanoseconds ? TimeUtils.convert(value, TimeUnit.NANOSECONDS, TimeUnit.SECONDS) : value;
	}

	/**
	 * Return how many exemplars a scrape sees.
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the number of live exemplars
	 */
	int count(long now) {
		int count = 0;
		for (int position = 0; (position = nextLive(position, count, now)) >= 0; position++) {
			count++;
		}
		return count;
	}

	/**
	 * Return the live exemplar at an index, in the order client_java lists them.
	 * @param now the scrape's wall-clock time in milliseconds
	 * @param index the index
	 * @return the exemplar, or {@code null} when there are fewer
	 */
	@Nullable Exemplar get(long now, int index) {
		int seen = 0;
		for (int position = 0; (position = nextLive(position, seen, now)) >= 0; position++) {
			if (seen++ == index) {
				return slot(position);
			}
		}
		return null;
	}

	/**
	 * Return the newest live exemplar, as client_java's {@code Exemplars.getLatest()}
	 * chooses it: a later one replaces an earlier one without a timestamp, or an older
	 * one.
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the exemplar, or {@code null} when there is none
	 */
	@Nullable Exemplar latest(long now) {
		Exemplar latest = null;
		int seen = 0;
		for (int position = 0; (position = nextLive(position, seen, now)) >= 0; position++) {
			// Read again: a concurrent collect() may have cleared the slot meanwhile.
			Exemplar exemplar = slot(position);
			seen++;
			if (exemplar != null) {
				latest = later(latest, exemplar);
			}
		}
		return latest;
	}

	/**
	 * Return the exemplar of a histogram bucket, as client_java's
	 * {@code Exemplars.get(lower, upper)} chooses it: the first live one whose written
	 * value lies in {@code (lower, upper]}, replaced by a later such one only when both
	 * have timestamps and the later is newer.
	 * @param now the scrape's wall-clock time in milliseconds
	 * @param lower the bucket's lower bound, exclusive
	 * @param upper the bucket's upper bound, inclusive
	 * @return the exemplar, or {@code null} when there is none
	 */
	@Nullable Exemplar inBucket(long now, double lower, double upper) {
		Exemplar chosen = null;
		int seen = 0;
		for (int position = 0; (position = nextLive(position, seen, now)) >= 0; position++) {
			Exemplar exemplar = slot(position);
			seen++;
			if (exemplar != null) {
				chosen = inBucket(chosen, exemplar, lower, upper);
			}
		}
		return chosen;
	}

	/**
	 * Return the position of the next live exemplar from a position on, over the custom
	 * slots then the sampled ones, which count only while fewer than the sampled slots
	 * were seen (as {@code collect()} has it).
	 * @param from the first position to look at
	 * @param seen how many live exemplars were seen before it
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the position, or {@code -1} when there is none
	 */
	private int nextLive(int from, int seen, long now) {
		int end = this.custom.length + this.sampled.length;
		for (int position = from; position < end; position++) {
			if (position >= this.custom.length && seen >= this.sampled.length) {
				return -1;
			}
			Exemplar exemplar = slot(position);
			if (exemplar != null && isLive(exemplar, now)) {
				return position;
			}
		}
		return -1;
	}

	private @Nullable Exemplar slot(int position) {
		return (position < this.custom.length) ? this.custom[position] : this.sampled[position - this.custom.length];
	}

	private @Nullable Exemplar inBucket(@Nullable Exemplar chosen, Exemplar candidate, double lower, double upper) {
		double value = value(candidate);
		if (!(lower < value && value <= upper)) {
			return chosen;
		}
		if (chosen == null) {
			return candidate;
		}
		boolean newer = chosen.hasTimestamp() && candidate.hasTimestamp()
				&& candidate.getTimestampMillis() > chosen.getTimestampMillis();
		return newer ? candidate : chosen;
	}

	private static Exemplar later(@Nullable Exemplar latest, Exemplar candidate) {
		if (latest == null || !latest.hasTimestamp()) {
			return candidate;
		}
		if (candidate.hasTimestamp() && candidate.getTimestampMillis() > latest.getTimestampMillis()) {
			return candidate;
		}
		return latest;
	}

	private boolean isLive(Exemplar exemplar, long now) {
		return now - exemplar.getTimestampMillis() <= this.maxRetentionMillis;
	}

}
