package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Decides which scrapes the direct path leaves to the reference path as a whole, and
 * counts every fallback, whole scrape or family, by {@link FallbackReason}. The first of
 * each reason is logged once per renderer; later ones are counted without allocating.
 * <p>
 * A whole scrape goes there when its bytes cannot be promised: another meter registry,
 * unreadable internals or exemplars; or, found in the scrape ({@link DirectRenderer},
 * {@link ReferenceFamilies}), unreadable created timestamps, a family of several sources,
 * collectors not told apart.
 *
 * @author leanscrape
 */
final class FallbackPolicy {

	private static final Log logger = LogFactory.getLog(FallbackPolicy.class);

	/** The family names a log line gives at most. */
	private static final int NAMES_LOGGED = 5;

	private static final FallbackReason[] REASONS = FallbackReason.values();

	private final MicrometerInternals internals;

	private final boolean scrapedRegistryIsTheMeterRegistrys;

	private final boolean exemplarsUnreadable;

	private final AtomicLong wholeScrapes = new AtomicLong();

	private final AtomicLong families = new AtomicLong();

	/** The fallbacks of each reason, by ordinal: scrapes or families. */
	private final LongAdder[] counts = new LongAdder[REASONS.length];

	/** Whether each reason, by ordinal, was logged: 1 once it was. */
	private final AtomicIntegerArray logged = new AtomicIntegerArray(REASONS.length);

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
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
	}

	/**
	 * Return why a scrape in a format must go to the reference path as a whole, as far as
	 * is known before the scrape starts.
	 * @param format the format
	 * @return the reason, or {@code null} when the direct path may write it
	 */
	@Nullable FallbackReason wholeScrapeReason(PrometheusOutputFormat format) {
		if (!this.scrapedRegistryIsTheMeterRegistrys) {
			return FallbackReason.SCRAPED_REGISTRY_NOT_THE_METER_REGISTRYS;
		}
		if (!this.internals.isUsable()) {
			return FallbackReason.INTERNALS_NOT_VISIBLE;
		}
		if (format != PrometheusOutputFormat.CONTENT_TYPE_004 && this.exemplarsUnreadable) {
			return FallbackReason.EXEMPLARS_NOT_READABLE;
		}
		return null;
	}

	/**
	 * Count a scrape that goes to the reference path as a whole, and log the first of its
	 * reason.
	 * @param reason why
	 * @param format its format
	 * @param family the family concerned, or {@code null} when it concerns none in
	 * particular
	 */
	void wholeScrape(FallbackReason reason, PrometheusOutputFormat format, @Nullable String family) {
		this.wholeScrapes.incrementAndGet();
		this.counts[reason.ordinal()].increment();
		if (isFirst(reason)) {
			log(reason, "Scrapes in " + format + " (and maybe other formats) are served whole by the reference path "
					+ "(Spring Boot's), exact but slower: " + reason.text()
					+ ((family != null) ? " (family " + family + ")" : "") + ". What to do: " + reason.remedy()
					+ ". Logged once for this reason; the 'leanscrape' actuator endpoint counts fallbacks by reason.");
		}
	}

	/**
	 * Count the families that the reference path writes inside a direct scrape for one
	 * reason, and log the first of the reason with the names of the families concerned.
	 * @param reason why
	 * @param count how many families
	 * @param plan the scrape's plan, which names the meters' families of the reason
	 * @param foreign the families of collectors registered outside Micrometer, which name
	 * them
	 */
	void families(FallbackReason reason, int count, ScrapePlan plan, List<MetricSnapshot> foreign) {
		this.families.addAndGet(count);
		this.counts[reason.ordinal()].add(count);
		if (isFirst(reason)) {
			log(reason, "Families are written by the reference path (Spring Boot's) inside direct scrapes, exact but "
					+ "slower: " + reason.text() + ": " + names(reason, plan, foreign) + ". What to do: "
					+ reason.remedy()
					+ ". Logged once for this reason; the 'leanscrape' actuator endpoint counts fallbacks by reason.");
		}
	}

	long wholeScrapes() {
		return this.wholeScrapes.get();
	}

	long families() {
		return this.families.get();
	}

	/**
	 * Return how many scrapes went to the reference path as a whole for each reason.
	 * @return the counts by reason, in the order of the reasons' texts
	 */
	Map<String, Long> wholeScrapeReasons() {
		return reasons(true);
	}

	/**
	 * Return how many families the reference path wrote inside direct scrapes for each
	 * reason.
	 * @return the counts by reason, in the order of the reasons' texts
	 */
	Map<String, Long> familyReasons() {
		return reasons(false);
	}

	private Map<String, Long> reasons(boolean wholeScrape) {
		Map<String, Long> reasons = new TreeMap<>();
		for (FallbackReason reason : REASONS) {
			long count = this.counts[reason.ordinal()].sum();
			if (reason.isWholeScrape() == wholeScrape && count > 0) {
				reasons.put(reason.text(), count);
			}
		}
		return reasons;
	}

	private boolean isFirst(FallbackReason reason) {
		return this.logged.get(reason.ordinal()) == 0 && this.logged.compareAndSet(reason.ordinal(), 0, 1);
	}

	private static void log(FallbackReason reason, String message) {
		if (reason.warns()) {
			logger.warn(message);
		}
		else {
			logger.info(message);
		}
	}

	/**
	 * Name a few of the families of a reason: those of collectors registered outside
	 * Micrometer, or the Prometheus names of the meters left to the reference path for
	 * it.
	 * @param reason the reason
	 * @param plan the scrape's plan
	 * @param foreign the families of collectors registered outside Micrometer
	 * @return the names
	 */
	private static String names(FallbackReason reason, ScrapePlan plan, List<MetricSnapshot> foreign) {
		List<String> names = new ArrayList<>();
		if (reason == FallbackReason.COLLECTORS_OUTSIDE_MICROMETER) {
			for (MetricSnapshot snapshot : foreign) {
				names.add(ReferenceFamilies.name(snapshot));
			}
		}
		else {
			for (int i = 0; i < plan.referenceNames().length; i++) {
				if (plan.referenceReasons()[i] == reason) {
					names.add(plan.referenceNames()[i]);
				}
			}
		}
		names.sort(null);
		if (names.size() <= NAMES_LOGGED) {
			return String.join(", ", names);
		}
		return String.join(", ", names.subList(0, NAMES_LOGGED)) + " and " + (names.size() - NAMES_LOGGED) + " more";
	}

}
