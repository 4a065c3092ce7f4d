package io.github.leanscrape.demo;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A trivial endpoint, the request that load runs against the demo application send.
 *
 * @author leanscrape
 */
@RestController
class DemoController {

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

}
