package io.github.leanscrape.demo;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The demo's routes: a trivial {@code GET /hello}, the request that load runs send, and a
 * few that make it look like a service under traffic to its meters: items found and not
 * found, orders created, searches of varying length, reports made on Spring Boot's task
 * executor.
 *
 * @author leanscrape
 */
@RestController
class DemoController {

	private static final int KNOWN_ITEMS = 1000;

	private final AsyncTaskExecutor executor;

	DemoController(@Qualifier("applicationTaskExecutor") AsyncTaskExecutor applicationTaskExecutor) {
		this.executor = applicationTaskExecutor;
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@GetMapping("/items/{id}")
	String item(@PathVariable int id) {
		if (id < 0 || id >= KNOWN_ITEMS) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No item " + id);
		}
		return "item " + id;
	}

	@PostMapping("/orders")
	@ResponseStatus(HttpStatus.CREATED)
	String order() {
		return "created";
	}

	@GetMapping("/search")
	String search(@RequestParam(defaultValue = "") String q) throws InterruptedException {
		// Searches take from nothing to tens of milliseconds: the latency histogram's
		// buckets fill unevenly, as a real route's do.
		Thread.sleep(ThreadLocalRandom.current().nextInt(0, 40));
		return "results for " + q;
	}

	@GetMapping("/report")
	CompletableFuture<String> report() {
		return CompletableFuture.supplyAsync(() -> "report", this.executor);
	}

}
