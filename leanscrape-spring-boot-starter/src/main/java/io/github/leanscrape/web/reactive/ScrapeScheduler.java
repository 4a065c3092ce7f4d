package io.github.leanscrape.web.reactive;

import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The threads that serve scrapes on the reactive stack, off the event loop: a scrape may
 * render, or wait for a rendering another scrape holds, or for its turn to render. The
 * starter's own threads rather than Reactor's shared {@code boundedElastic()}, whose
 * threads (ten per core) other blocking work needs too, Spring Boot's health indicators
 * among them: scrapes waiting in a storm must not hold them all.
 *
 * @author leanscrape
 */
public final class ScrapeScheduler implements DisposableBean {

	private static final String THREAD_NAME = "leanscrape-scrape";

	private final Scheduler scheduler;

	private final boolean virtual;

	private ScrapeScheduler(Scheduler scheduler, boolean virtual) {
		this.scheduler = scheduler;
		this.virtual = virtual;
	}

	/**
	 * Return a scheduler of platform threads, as many as Reactor's
	 * {@code boundedElastic()} may have (ten per core), idle ones ending after a minute;
	 * scrapes beyond them wait in its queue, their deadlines running.
	 * @return the scheduler
	 */
	public static ScrapeScheduler platformThreads() {
		return new ScrapeScheduler(Schedulers.newBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE,
				Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, THREAD_NAME, 60, true), false);
	}

	/**
	 * Return a scheduler that serves each scrape on a virtual thread of its own (Java 21
	 * and later): a scrape that waits parks its thread and holds no carrier.
	 * @return the scheduler
	 */
	public static ScrapeScheduler virtualThreads() {
		return new ScrapeScheduler(Schedulers.fromExecutor(new VirtualThreadTaskExecutor(THREAD_NAME + "-")), true);
	}

	/**
	 * Return the scheduler.
	 * @return the scheduler
	 */
	public Scheduler scheduler() {
		return this.scheduler;
	}

	/**
	 * Return whether scrapes run on virtual threads.
	 * @return {@code true} for virtual threads
	 */
	public boolean isVirtual() {
		return this.virtual;
	}

	@Override
	public void destroy() {
		this.scheduler.dispose();
	}

}
