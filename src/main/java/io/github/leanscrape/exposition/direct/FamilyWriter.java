package io.github.leanscrape.exposition.direct;

import java.util.concurrent.TimeUnit;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import org.jspecify.annotations.Nullable;

/**
 * Writes the sample lines of a direct family from its meters, one meter type at a time,
 * exactly as client_java writes what Micrometer's collector hands it: the series' labels
 * were encoded when the meters were added, so a line is a copy of the sample name and the
 * labels, then the value.
 *
 * @author leanscrape
 */
final class FamilyWriter {

	/**
	 * How many counter or gauge values a scrape reads ahead of writing their lines:
	 * enough for the reads to overlap, little enough to stay in the fastest cache.
	 */
	static final int VALUE_BLOCK = 64;

	private static final byte[] LE = { 'l', 'e', '=', '"' };

	private static final byte[] QUANTILE = { 'q', 'u', 'a', 'n', 't', 'i', 'l', 'e', '=', '"' };

	private FamilyWriter() {
	}

	/**
	 * Call the functions of an excluded family's function meters. Spring Boot's endpoint
	 * collects every meter even when a name filter excludes it, so a function that
	 * throws, or a function counter gone negative, fails its scrape; so it fails here
	 * too.
	 * @param family the excluded family
	 * @param series its series
	 */
	static void evaluateFunctions(Family family, Series[] series) {
		if (family.kind != SeriesKind.COUNTER && family.kind != SeriesKind.SUMMARY) {
			return;
		}
		for (Series each : series) {
			if (each.meter instanceof FunctionCounter counter) {
				double value = counter.count();
				if (value < 0) {
					throw new IllegalArgumentException(value + ": counters cannot have a negative value");
				}
			}
			else if (each.meter instanceof FunctionTimer timer) {
				timer.count();
				timer.totalTime(TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * Write one family: its metadata lines, then its series in order. A full scrape keeps
	 * the family's lines and bytes for the cardinality report.
	 * @param family the family
	 * @param series its series, in exposition order
	 * @param format the format
	 * @param values room for a block of values, reused across families
	 * @param out the output
	 * @param full whether this is a full scrape
	 * @param exemplars how to write exemplars, or {@code null} when none are written
	 */
	static void writeFamily(Family family, Series[] series, TextFormat format, double[] values, ChunkedOutput out,
			boolean full, @Nullable ExemplarScrape exemplars) {
		long start = out.size();
		out.write(format.metadata(family));
		int lines = switch (family.kind) {
			case COUNTER -> writeCounters(family, series, values, out, exemplars);
			case GAUGE -> writeGauges(family, series, values, out);
			case MAX -> writeMaxima(family, series, out);
			case SUMMARY -> writeSummaries(family, series, out, exemplars);
			case HISTOGRAM -> writeHistograms(family, series, format, out, exemplars);
			case INFO -> writeInfos(family, series, out);
		};
		if (full) {
			family.lastLines = lines;
			family.lastBytes = out.size() - start;
		}
	}

	/**
	 * Write counters a block at a time: first read the block's values, then write its
	 * lines. Each read follows a chain of references (series, meter, adder) into objects
	 * spread over the heap, which usually miss the CPU's caches; in a loop that does only
	 * that, the processor has many chains in flight at once, where between the writes of
	 * a line it had one (at 100,000 series, the reads went from about half of the
	 * scrape's time to a small part of it).
	 * @param family the family
	 * @param series its series, in order
	 * @param values room for a block of values
	 * @param out the output
	 * @param exemplars how to write exemplars, or {@code null} when none are written
	 * @return the lines written
	 */
	private static int writeCounters(Family family, Series[] series, double[] values, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars) {
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Meter meter = series[i].meter;
				values[i - start] = (meter instanceof Counter counter) ? counter.count()
						: ((FunctionCounter) meter).count();
			}
			if (exemplars != null) {
				// The exemplars too, for the same reason: a chain of references each.
				for (int i = start; i < end; i++) {
					exemplars.block[i - start] = (series[i] instanceof ExemplarSeries sampled)
							? sampled.exemplars.latest(exemplars.now()) : null;
				}
			}
			for (int i = start; i < end; i++) {
				double value = values[i - start];
				if (value < 0) {
					// As client_java rejects it: the whole scrape fails, as it would
					// without the starter.
					throw new IllegalArgumentException(value + ": counters cannot have a negative value");
				}
				writeSample(family.sampleName, series[i].labels, out);
				out.writeDouble(value);
				if (exemplars != null && series[i] instanceof ExemplarSeries sampled) {
					// Counter lines carry their exemplar, whatever
					// exemplarsOnAllMetricTypes.
					ExemplarWriter.write(exemplars.block[i - start], sampled.exemplars, out);
				}
				out.write('\n');
			}
		}
		return series.length;
	}

	/**
	 * Write gauges a block at a time, as {@link #writeCounters} does and for the same
	 * reason.
	 * @param family the family
	 * @param series its series, in order
	 * @param values room for a block of values
	 * @param out the output
	 * @return the lines written
	 */
	private static int writeGauges(Family family, Series[] series, double[] values, ChunkedOutput out) {
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				values[i - start] = ((Gauge) series[i].meter).value();
			}
			for (int i = start; i < end; i++) {
				writeSample(family.sampleName, series[i].labels, out);
				out.writeDouble(values[i - start]);
				out.write('\n');
			}
		}
		return series.length;
	}

	/**
	 * Write the lines of an info metric: the value is always 1, and the gauge's function
	 * is never called, as in Micrometer's collector.
	 * @param family the family
	 * @param series its series, in order
	 * @param out the output
	 * @return the lines written
	 */
	private static int writeInfos(Family family, Series[] series, ChunkedOutput out) {
		for (Series each : series) {
			writeSample(family.sampleName, each.labels, out);
			out.write('1');
			out.write('\n');
		}
		return series.length;
	}

	private static int writeMaxima(Family family, Series[] series, ChunkedOutput out) {
		for (Series each : series) {
			Meter meter = each.meter;
			double max;
			if (meter instanceof Timer timer) {
				max = timer.max(TimeUnit.SECONDS);
			}
			else if (meter instanceof LongTaskTimer longTask) {
				max = longTask.max(TimeUnit.SECONDS);
			}
			else {
				max = ((DistributionSummary) meter).max();
			}
			writeSample(family.sampleName, each.labels, out);
			out.writeDouble(max);
			out.write('\n');
		}
		return series.length;
	}

	private static int writeSummaries(Family family, Series[] series, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars) {
		int lines = 0;
		for (Series each : series) {
			Meter meter = each.meter;
			ExemplarSlots slots = (exemplars != null && exemplars.allMetricTypes()
					&& each instanceof ExemplarSeries sampled) ? sampled.exemplars : null;
			long now = (exemplars != null) ? exemplars.now() : 0;
			long count;
			double sum;
			if (meter instanceof Timer timer) {
				if (each.percentiles) {
					HistogramSnapshot snapshot = timer.takeSnapshot();
					count = snapshot.count();
					sum = snapshot.total(TimeUnit.SECONDS);
					lines += writeQuantiles(family, each, snapshot.percentileValues(), true, out, slots, now);
				}
				else {
					count = timer.count();
					sum = timer.totalTime(TimeUnit.SECONDS);
				}
			}
			else if (meter instanceof DistributionSummary summary) {
				if (each.percentiles) {
					lines += writeQuantiles(family, each, summary.takeSnapshot().percentileValues(), false, out, slots,
							now);
				}
				count = summary.count();
				sum = summary.totalAmount();
			}
			else if (meter instanceof LongTaskTimer longTask) {
				// One snapshot, as Micrometer takes it: the tasks' durations move with
				// the
				// clock.
				HistogramSnapshot snapshot = longTask.takeSnapshot();
				count = snapshot.count();
				sum = snapshot.total(TimeUnit.SECONDS);
				if (each.percentiles) {
					lines += writeQuantiles(family, each, snapshot.percentileValues(), true, out, null, 0);
				}
			}
			else {
				FunctionTimer timer = (FunctionTimer) meter;
				count = (long) timer.count();
				sum = timer.totalTime(TimeUnit.SECONDS);
			}
			lines += writeCountAndSum(family, each, count, sum, out, slots, now);
		}
		return lines;
	}

	/**
	 * Write the quantile lines of a summary, each with an exemplar where client_java
	 * writes one: it cycles through the exemplars from the third on, which for
	 * Micrometer's single exemplar means that one on every line.
	 * @param family the family
	 * @param series the series
	 * @param values the snapshot's quantiles
	 * @param seconds whether the values are times, written in seconds
	 * @param out the output
	 * @param exemplars the series' exemplars, or {@code null} when its quantile lines
	 * carry none
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the lines written
	 */
	private static int writeQuantiles(Family family, Series series, ValueAtPercentile[] values, boolean seconds,
			ChunkedOutput out, @Nullable ExemplarSlots exemplars, long now) {
		sortByPercentile(values);
		int exemplarCount = (exemplars != null) ? exemplars.count(now) : 0;
		int exemplarIndex = 1;
		for (ValueAtPercentile value : values) {
			out.write(family.sampleName);
			openLabels(series.labels, out);
			out.write(QUANTILE);
			out.writeDouble(value.percentile());
			closeLabels(out);
			out.writeDouble(seconds ? value.value(TimeUnit.SECONDS) : value.value());
			if (exemplars != null && exemplarCount > 0) {
				exemplarIndex = (exemplarIndex + 1) % exemplarCount;
				ExemplarWriter.write(exemplars.get(now, exemplarIndex), exemplars, out);
			}
			out.write('\n');
		}
		return values.length;
	}

	/**
	 * Quantiles come out in ascending order, as client_java sorts them; the array is the
	 * snapshot's own, and tiny, so it is sorted in place.
	 * @param values the snapshot's quantiles
	 */
	private static void sortByPercentile(ValueAtPercentile[] values) {
		for (int i = 1; i < values.length; i++) {
			ValueAtPercentile value = values[i];
			int j = i - 1;
			while (j >= 0 && values[j].percentile() > value.percentile()) {
				values[j + 1] = values[j];
				j--;
			}
			values[j + 1] = value;
		}
	}

	private static int writeHistograms(Family family, Series[] series, TextFormat format, ChunkedOutput out,
			@Nullable ExemplarScrape exemplars) {
		int lines = 0;
		for (Series each : series) {
			Meter meter = each.meter;
			ExemplarSlots slots = (exemplars != null && each instanceof ExemplarSeries sampled) ? sampled.exemplars
					: null;
			long now = (exemplars != null) ? exemplars.now() : 0;
			CountAtBucket[] buckets;
			long count;
			double sum;
			boolean seconds = meter instanceof PrometheusTimer;
			if (seconds) {
				PrometheusTimer timer = (PrometheusTimer) meter;
				buckets = timer.histogramCounts();
				count = timer.count();
				sum = timer.totalTime(TimeUnit.SECONDS);
			}
			else {
				PrometheusDistributionSummary summary = (PrometheusDistributionSummary) meter;
				buckets = summary.histogramCounts();
				count = summary.count();
				sum = summary.totalAmount();
			}
			lines += buckets.length + (Double.isFinite(buckets[buckets.length - 1].bucket()) ? 1 : 0);
			long cumulative = writeBuckets(family, each, buckets, count, seconds, out, slots, now);
			if (format.writesCountAndSum(sum)) {
				ExemplarSlots countSlots = (exemplars != null && exemplars.allMetricTypes()) ? slots : null;
				lines += writeCountAndSum(family, each, cumulative, sum, out, countSlots, now);
			}
		}
		return lines;
	}

	/**
	 * Write the bucket lines as client_java does after Micrometer handed it per-bucket
	 * counts: Micrometer's cumulative counts are turned into differences (truncated to
	 * whole numbers) and summed up again, and a {@code +Inf} bucket is added when the
	 * last bound is finite.
	 * @param family the family
	 * @param series the series
	 * @param buckets the cumulative bucket counts Micrometer keeps
	 * @param count the histogram's count
	 * @param seconds whether the bounds are times, written in seconds
	 * @param out the output
	 * @param exemplars the series' exemplars, or {@code null} when it has none
	 * @param now the scrape's wall-clock time in milliseconds
	 * @return the total count, which client_java writes as {@code _count}
	 */
	private static long writeBuckets(Family family, Series series, CountAtBucket[] buckets, long count, boolean seconds,
			ChunkedOutput out, @Nullable ExemplarSlots exemplars, long now) {
		long cumulative = 0;
		double previous = 0;
		double lower = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < buckets.length; i++) {
			double bucketCount = buckets[i].count();
			cumulative += (long) ((i == 0) ? bucketCount : bucketCount - previous);
			previous = bucketCount;
			double bound = seconds ? buckets[i].bucket(TimeUnit.SECONDS) : buckets[i].bucket();
			writeBucket(family, series, bound, cumulative, out);
			if (exemplars != null) {
				ExemplarWriter.write(exemplars.inBucket(now, lower, bound), exemplars, out);
			}
			out.write('\n');
			lower = bound;
		}
		double last = buckets[buckets.length - 1].bucket();
		if (Double.isFinite(last)) {
			double infinite = count - previous;
			cumulative += (long) ((infinite >= 0) ? infinite : 0);
			writeBucket(family, series, Double.POSITIVE_INFINITY, cumulative, out);
			if (exemplars != null) {
				ExemplarWriter.write(exemplars.inBucket(now, lower, Double.POSITIVE_INFINITY), exemplars, out);
			}
			out.write('\n');
		}
		return cumulative;
	}

	private static void writeBucket(Family family, Series series, double bound, long cumulative, ChunkedOutput out) {
		out.write(family.bucketName);
		openLabels(series.labels, out);
		out.write(LE);
		out.writeDouble(bound);
		closeLabels(out);
		out.writeLong(cumulative);
	}

	private static int writeCountAndSum(Family family, Series series, long count, double sum, ChunkedOutput out,
			@Nullable ExemplarSlots countExemplars, long now) {
		int lines = 0;
		if (count >= 0) {
			writeSample(family.countName, series.labels, out);
			out.writeLong(count);
			if (countExemplars != null) {
				ExemplarWriter.write(countExemplars.latest(now), countExemplars, out);
			}
			out.write('\n');
			lines++;
		}
		if (!Double.isNaN(sum)) {
			writeSample(family.sumName, series.labels, out);
			out.writeDouble(sum);
			out.write('\n');
			lines++;
		}
		return lines;
	}

	private static void writeSample(byte[] name, byte[] labels, ChunkedOutput out) {
		out.write(name);
		out.write(labels);
		out.write(' ');
	}

	/**
	 * Write the labels up to where an extra label ({@code le}, {@code quantile}) goes:
	 * all but the closing brace, and a comma; or just the opening brace.
	 * @param labels the series' encoded labels
	 * @param out the output
	 */
	private static void openLabels(byte[] labels, ChunkedOutput out) {
		if (labels.length == 0) {
			out.write('{');
		}
		else {
			out.write(labels, 0, labels.length - 1);
			out.write(',');
		}
	}

	private static void closeLabels(ChunkedOutput out) {
		out.write('"');
		out.write('}');
		out.write(' ');
	}

}
