// GNUstep's NSPredicate, the peer of Sift's parser and evaluator in Benchmarks/run, which
// compiles this file with gcc and gnustep-config. It prints what PeerWorkloads prints:
// `seconds=<CPU seconds of the work> checksum=<what the work added up to>`.
//
//     gnustep-predicates parse FILE ROUNDS                     predicateWithFormat: on each line
//     gnustep-predicates dictionaries plain|compound|any COUNT ROUNDS
//                                                              evaluateWithObject: on NSDictionary
//     gnustep-predicates filter plain|compound|any COUNT ROUNDS
//                                                              filteredArrayUsingPredicate: of the same
//
// The records are PeerWorkloads' (Records in PeerWorkloads/main.swift).
#import <Foundation/Foundation.h>
#include <time.h>

static double cpuTime(void) {
    struct timespec spec;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec);
    return spec.tv_sec + spec.tv_nsec / 1e9;
}

static NSString *predicateFormat(NSString *kind) {
    if ([kind isEqualToString: @"plain"]) return @"age > 30";
    if ([kind isEqualToString: @"compound"]) return @"name BEGINSWITH[cd] \"st\" AND age > 30";
    if ([kind isEqualToString: @"any"]) return @"ANY tags == \"x\"";
    return nil;
}

// Written for gcc's Objective-C (Debian's GNUstep runtime): no literals, no @autoreleasepool.
int main(int argc, char **argv) {
    NSAutoreleasePool *pool = [NSAutoreleasePool new];
    {
        if (argc == 4 && strcmp(argv[1], "parse") == 0) {
            NSString *text = [NSString stringWithContentsOfFile: [NSString stringWithUTF8String: argv[2]]
                                                       encoding: NSUTF8StringEncoding error: NULL];
            NSMutableArray *formats = [NSMutableArray array];
            for (NSString *line in [text componentsSeparatedByString: @"\n"]) {
                if ([line length] > 0) [formats addObject: line];
            }
            int rounds = atoi(argv[3]);
            double start = cpuTime();
            long parsed = 0;
            for (int round = 0; round < rounds; round++) {
                NSAutoreleasePool *roundPool = [NSAutoreleasePool new];
                for (NSString *format in formats) {
                    if ([NSPredicate predicateWithFormat: format] != nil) parsed++;
                }
                [roundPool release];
            }
            printf("seconds=%.6f checksum=%ld\n", cpuTime() - start, parsed);
            [pool release];
            return 0;
        }
        int filtering = argc == 5 && strcmp(argv[1], "filter") == 0;
        if (argc == 5 && (strcmp(argv[1], "dictionaries") == 0 || filtering)) {
            NSString *format = predicateFormat([NSString stringWithUTF8String: argv[2]]);
            if (format == nil) { fprintf(stderr, "kind: plain, compound or any\n"); return 1; }
            NSPredicate *predicate = [NSPredicate predicateWithFormat: format];
            int count = atoi(argv[3]), rounds = atoi(argv[4]);
            NSArray *names = [NSArray arrayWithObjects: @"stella", @"Stan", @"anna", @"Ángel", @"bob", @"stéphane", @"Zoe", @"Steve", @"maria", @"Ali", nil];
            NSArray *xy = [NSArray arrayWithObjects: @"x", @"y", nil];
            NSArray *yz = [NSArray arrayWithObjects: @"y", @"z", nil];
            NSMutableArray *records = [NSMutableArray arrayWithCapacity: count];
            for (int i = 0; i < count; i++) {
                NSString *name = [NSString stringWithFormat: @"%@ %d", [names objectAtIndex: i % [names count]], i];
                NSArray *tags = i % 3 == 0 ? xy : yz;
                [records addObject: [NSDictionary dictionaryWithObjectsAndKeys: name, @"name",
                    [NSNumber numberWithInt: (i * 7) % 80], @"age", tags, @"tags", nil]];
            }
            double start = cpuTime();
            long matched = 0;
            for (int round = 0; round < rounds; round++) {
                NSAutoreleasePool *roundPool = [NSAutoreleasePool new];
                if (filtering) {
                    matched += [[records filteredArrayUsingPredicate: predicate] count];
                } else {
                    for (NSDictionary *record in records) {
                        if ([predicate evaluateWithObject: record]) matched++;
                    }
                }
                [roundPool release];
            }
            printf("seconds=%.6f checksum=%ld\n", cpuTime() - start, matched);
            [pool release];
            return 0;
        }
        fprintf(stderr, "usage: gnustep-predicates parse FILE ROUNDS | dictionaries|filter KIND COUNT ROUNDS\n");
    }
    [pool release];
    return 1;
}
