package io.github.leanscrape.exposition.direct;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusTimer;

/**
 * The values of one histogram or gauge histogram series as client_java gets them from
 * Micrometer's collector: Micrometer's cumulative bucket counts are turned into
 * differences (truncated to whole numbers) and summed up again, and a {@code +Inf} bucket
 * is added when the last bound is finite. One instance per scrape, read again for each
 * series; its arrays grow to the largest histogram and are kept.
 *
 * @author leanscrape
 */
final class HistogramValues {

	/** The buckets read, {@code +Inf} included. */
	int buckets;

	/** Each bucket's upper bound, in seconds for a timer. */
	double[] bounds = new double[16];

	/** Each bucket's cumulative count. */
	long[] cumulative = new long[16];

	double sum;

	/**
	 * Read the values of a series.
	 * @param series the series
	 */
	void read(Series series) {
		CountAtBucket[] counts;
		long count;
		boolean seconds = !(series.meter instanceof PrometheusDistributionSummary);
		if (series.meter instanceof LongTaskTimer longTask) {
			// One snapshot, as Micrometer takes it: the tasks' durations move with the
			// clock.
			HistogramSnapshot snapshot = longTask.takeSnapshot();
			counts = snapshot.histogramCounts();
			count = snapshot.count();
			this.sum = snapshot.total(TimeUnit.SECONDS);
		}
		else if (seconds) {
			PrometheusTimer timer = (PrometheusTimer) series.meter;
			counts = timer.histogramCounts();
			count = timer.count();
			this.sum = timer.totalTime(TimeUnit.SECONDS);
		}
		else {
			PrometheusDistributionSummary summary = (PrometheusDistributionSummary) series.meter;
			counts = summary.histogramCounts();
			count = summary.count();
			this.sum = summary.totalAmount();
		}
		int buckets = counts.length + (Double.isFinite(counts[counts.length - 1].bucket()) ? 1 : 0);
		if (this.bounds.length < buckets) {
			this.bounds = new double[buckets];
			this.cumulative = new long[buckets];
		}
		long cumulative = 0;
		double previous = 0;
		for (int i = 0; i < counts.length; i++) {
			double bucketCount = counts[i].count();
			cumulative += (long) ((i == 0) ? bucketCount : bucketCount - previous);
			previous = bucketCount;
			this.bounds[i] = seconds ? counts[i].bucket(TimeUnit.SECONDS) : counts[i].bucket();
			this.cumulative[i] = cumulative;
		}
		if (buckets > counts.length) {
			double infinite = count - previous;
			cumulative += (long) ((infinite >= 0) ? infinite : 0);
			this.bounds[counts.length] = Double.POSITIVE_INFINITY;
			this.cumulative[counts.length] = cumulative;
		}
		this.buckets = buckets;
	}

	/**
	 * Return the count client_java writes: the cumulative count of the last bucket.
	 * @return the count
	 */
	long count() {
		return this.cumulative[this.buckets - 1];
	}

}
