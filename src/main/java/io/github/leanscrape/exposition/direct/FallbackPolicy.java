package io.github.leanscrape.exposition.direct;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Decides which scrapes the direct path leaves to the reference path as a whole, and
 * counts every fallback, whole scrapes and single families alike. Each kind of fallback
 * is logged once, at debug level.
 * <p>
 * A whole scrape goes to the reference path when the direct path cannot promise its
 * bytes: exemplars that cannot be read from the meters, a meter registry that is not the
 * one behind the scraped registry, registry internals that cannot be read, created
 * timestamps that cannot be learned from the registry's collector, a family fed by more
 * than one source. Each is counted by reason, for the cardinality report.
 *
 * @author leanscrape
 */
final class FallbackPolicy {

	private static final Log logger = LogFactory.getLog(FallbackPolicy.class);

	private final MicrometerInternals internals;

	private final boolean scrapedRegistryIsTheMeterRegistrys;

	private final boolean exemplarsUnreadable;

	private final AtomicLong wholeScrapes = new AtomicLong();

	private final AtomicLong families = new AtomicLong();

	private final Map<String, LongAdder> wholeScrapeReasons = new ConcurrentHashMap<>();

	private final Set<String> loggedReasons = ConcurrentHashMap.newKeySet();

	/**
	 * Create a new policy.
	 * @param internals what the registries' public API does not tell
	 * @param scrapedRegistryIsTheMeterRegistrys whether the registry that is scraped is
	 * the one behind the meter registry whose meters the direct path writes
	 * @param exemplarsUnreadable whether the registry samples exemplars that the direct
	 * path cannot read
	 */
	FallbackPolicy(MicrometerInternals internals, boolean scrapedRegistryIsTheMeterRegistrys,
			boolean exemplarsUnreadable) {
		this.internals = internals;
		this.scrapedRegistryIsTheMeterRegistrys = scrapedRegistryIsTheMeterRegistrys;
		this.exemplarsUnreadable = exemplarsUnreadable;
	}

	/**
	 * Return why a scrape in a format must go to the reference path as a whole.
	 * @param format the format
	 * @return the reason, or {@code null} when the direct path may write it
	 */
	@Nullable String wholeScrapeReason(PrometheusOutputFormat format) {
		if (!this.scrapedRegistryIsTheMeterRegistrys) {
			return "the scraped registry is not the meter registry's";
		}
		if (!this.internals.isUsable()) {
			return "registry internals not visible";
		}
		if (format != PrometheusOutputFormat.CONTENT_TYPE_004 && this.exemplarsUnreadable) {
			return "exemplars that cannot be read from the meters";
		}
		return null;
	}

	/**
	 * Count a scrape that goes to the reference path as a whole.
	 * @param reason why
	 * @param format its format
	 */
	void wholeScrape(String reason, PrometheusOutputFormat format) {
		this.wholeScrapes.incrementAndGet();
		this.wholeScrapeReasons.computeIfAbsent(reason, (key) -> new LongAdder()).increment();
		logOnce(reason, "Scrape in " + format + " served by the reference path: " + reason);
	}

	/**
	 * Count the families that the reference path writes inside a direct scrape: those of
	 * meters the direct path leaves alone and those of collectors registered outside
	 * Micrometer.
	 * @param count how many families
	 * @param first the name of one of them
	 */
	void families(int count, String first) {
		this.families.addAndGet(count);
		logOnce("family", "Families written by the reference path inside direct scrapes, e.g. " + first);
	}

	long wholeScrapes() {
		return this.wholeScrapes.get();
	}

	long families() {
		return this.families.get();
	}

	/**
	 * Return how many scrapes went to the reference path as a whole for each reason.
	 * @return the counts by reason, in the order of the reasons
	 */
	Map<String, Long> wholeScrapeReasons() {
		Map<String, Long> reasons = new TreeMap<>();
		this.wholeScrapeReasons.forEach((reason, count) -> reasons.put(reason, count.sum()));
		return reasons;
	}

	private void logOnce(String reason, String message) {
		if (logger.isDebugEnabled() && this.loggedReasons.add(reason)) {
			logger.debug(message);
		}
	}

}
