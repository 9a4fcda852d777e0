;; The fast paths of the TREC parsers, in WebAssembly: the usual lines of the query being
;; read, parsed into the columns (run) or records (qrels) the judge reads. The JavaScript
;; parsers in run_reader.ts and qrels_index.ts call these and take every other line
;; themselves (a new query, a comment, a CR, UTF-8, a score that is not plain, an error...),
;; with the rules written there; a line taken here gives exactly what their own fast path
;; gives (tests/metrics/wasm_lines_test.ts).
;;
;; Assembled by `deno task wasm` (tools/build_wasm.ts, wabt) into lines_wasm.ts.
;; Memory: the read buffer of a run starts at address 0 (an index into it is its address);
;; the caller places the columns and the powers of ten after it. The qrels' buffer follows
;; the previous docno, the open query's id and the records being written. `buf[end]` is a
;; newline.
(module
  (memory (export "memory") 1)

  ;; What runLines leaves for its caller besides where it stopped.
  (global $n (export "n") (mut i32) (i32.const 0))
  (global $line (export "line") (mut i32) (i32.const 0))
  (global $runIdStart (export "runIdStart") (mut i32) (i32.const -1))
  (global $runIdEnd (export "runIdEnd") (mut i32) (i32.const -1))
  ;; What qrelsLines leaves: the bytes of records written, and the previous docno's length.
  (global $written (export "written") (mut i32) (i32.const 0))
  (global $prevLen (export "prevLen") (mut i32) (i32.const 0))

  ;; The end of a run of spaces and tabs from k.
  (func $blankEnd (param $k i32) (result i32)
    (local $c i32)
    (block $done
      (loop $more
        (local.set $c (i32.load8_u (local.get $k)))
        (br_if $done (i32.and (i32.ne (local.get $c) (i32.const 32))
                              (i32.ne (local.get $c) (i32.const 9))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $more)))
    (local.get $k))

  ;; The end of a field of printable ASCII (33..127) from k.
  (func $fieldEnd (param $k i32) (result i32)
    (block $done
      (loop $more
        (br_if $done (i32.ge_u (i32.sub (i32.load8_u (local.get $k)) (i32.const 33))
                               (i32.const 95)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $more)))
    (local.get $k))

  (func $isBlank (param $c i32) (result i32)
    (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 9))))

  ;; The mask of an id's bytes in an 8-byte load (little-endian): all when 8 or more.
  (func $qidMask (param $qidLen i32) (result i64)
    (if (i32.ge_u (local.get $qidLen) (i32.const 8)) (then (return (i64.const -1))))
    (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $qidLen) (i32.const 3))))
             (i64.const 1)))

  ;; Whether the $qidLen bytes at $i differ from those at $qid. An id of at most 8 bytes (the
  ;; usual) is compared in one 8-byte load of each ($mask from $qidMask; the bytes after it,
  ;; within the memory, are masked off), a longer one byte by byte.
  (func $otherQuery (param $i i32) (param $qid i32) (param $qidLen i32) (param $mask i64)
    (result i32)
    (local $k i32)
    (if (i32.le_u (local.get $qidLen) (i32.const 8))
      (then
        (return (i64.ne (i64.and (i64.xor (i64.load (local.get $i)) (i64.load (local.get $qid)))
                                 (local.get $mask))
                        (i64.const 0)))))
    (block $same
      (loop $byte
        (br_if $same (i32.ge_u (local.get $k) (local.get $qidLen)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $i) (local.get $k)))
                    (i32.load8_u (i32.add (local.get $qid) (local.get $k))))
          (then (return (i32.const 1))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $byte)))
    (i32.const 0))

  ;; Run lines `qid Q0 docno rank score runid`, from $i while the line is usual and its query
  ;; id is the open block's (the $qidLen bytes at $qid, then a blank): for each, row $n of
  ;; the columns gets the docno's bounds and FNV-1a hash, the score (plain decimal of 1-15
  ;; digits: mantissa / 10^scale, both exact; rounded to a 32-bit float when $float32) and
  ;; the line number. Returns the start of the first line not taken ($end when all were);
  ;; the globals hold the next row, the last line number and the last taken line's runid.
  (func (export "runLines")
    (param $i i32) (param $end i32) (param $qid i32) (param $qidLen i32)
    (param $n i32) (param $line i32) (param $float32 i32) (param $pow10 i32)
    (param $docStart i32) (param $docEnd i32) (param $docHash i32) (param $score i32)
    (param $lines i32)
    (result i32)
    (local $k i32) (local $c i32) (local $ds i32) (local $de i32) (local $hash i32)
    (local $rankStart i32) (local $mant i64) (local $digits i32) (local $scale i32)
    (local $neg i32) (local $rs i32) (local $re i32) (local $value f64)
    (local $takenRunS i32) (local $takenRunE i32) (local $qidMask i64)
    (local.set $qidMask (call $qidMask (local.get $qidLen)))
    (local.set $takenRunS (i32.const -1))
    (local.set $takenRunE (i32.const -1))
    (block $stop
      (loop $next
        (br_if $stop (i32.ge_u (local.get $i) (local.get $end)))
        ;; The query id: the open block's, then a blank.
        (br_if $stop (call $otherQuery (local.get $i) (local.get $qid) (local.get $qidLen)
                                       (local.get $qidMask)))
        (local.set $k (i32.add (local.get $i) (local.get $qidLen)))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (local.get $k)))))
        ;; Q0, then the docno, hashed as it is scanned.
        (local.set $ds (call $blankEnd (call $fieldEnd (call $blankEnd (local.get $k)))))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (i32.sub (local.get $ds) (i32.const 1))))))
        (local.set $hash (i32.const 0x811c9dc5))
        (local.set $k (local.get $ds))
        (block $docno
          (loop $byte
            (local.set $c (i32.load8_u (local.get $k)))
            (br_if $docno (i32.ge_u (i32.sub (local.get $c) (i32.const 33)) (i32.const 95)))
            (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $c))
                                      (i32.const 0x01000193)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $byte)))
        (local.set $de (local.get $k))
        (br_if $stop (i32.eq (local.get $de) (local.get $ds)))
        (br_if $stop (i32.eqz (call $isBlank (local.get $c))))
        ;; The rank (not read), then the score.
        (local.set $rankStart (call $blankEnd (local.get $k)))
        (local.set $k (call $blankEnd (call $fieldEnd (local.get $rankStart))))
        (br_if $stop (i32.le_u (local.get $k) (local.get $rankStart)))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (i32.sub (local.get $k) (i32.const 1))))))
        (local.set $neg (i32.eq (i32.load8_u (local.get $k)) (i32.const 45)))
        (local.set $k (i32.add (local.get $k) (local.get $neg)))
        (local.set $mant (i64.const 0))
        (local.set $digits (i32.const 0))
        (local.set $scale (i32.const 0))
        (block $whole
          (loop $digit
            (local.set $c (i32.sub (i32.load8_u (local.get $k)) (i32.const 48)))
            (br_if $whole (i32.gt_u (local.get $c) (i32.const 9)))
            (local.set $mant (i64.add (i64.mul (local.get $mant) (i64.const 10))
                                      (i64.extend_i32_u (local.get $c))))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $digit)))
        (if (i32.eq (i32.load8_u (local.get $k)) (i32.const 46))
          (then
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (block $fraction
              (loop $digit
                (local.set $c (i32.sub (i32.load8_u (local.get $k)) (i32.const 48)))
                (br_if $fraction (i32.gt_u (local.get $c) (i32.const 9)))
                (local.set $mant (i64.add (i64.mul (local.get $mant) (i64.const 10))
                                          (i64.extend_i32_u (local.get $c))))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (local.set $scale (i32.add (local.get $scale) (i32.const 1)))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $digit)))))
        ;; 1-15 digits (more may not be exact: the caller's general path reads them).
        (br_if $stop (i32.eqz (local.get $digits)))
        (br_if $stop (i32.gt_u (local.get $digits) (i32.const 15)))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (local.get $k)))))
        ;; The runid, then only blanks to the newline.
        (local.set $rs (call $blankEnd (local.get $k)))
        (local.set $re (call $fieldEnd (local.get $rs)))
        (br_if $stop (i32.eq (local.get $re) (local.get $rs)))
        (local.set $k (call $blankEnd (local.get $re)))
        (br_if $stop (i32.ne (i32.load8_u (local.get $k)) (i32.const 10)))
        ;; Taken: row $n.
        (local.set $value (f64.div (f64.convert_i64_u (local.get $mant))
                                   (f64.load (i32.add (local.get $pow10)
                                                      (i32.shl (local.get $scale) (i32.const 3))))))
        (if (local.get $neg) (then (local.set $value (f64.neg (local.get $value)))))
        (if (local.get $float32)
          (then (local.set $value (f64.promote_f32 (f32.demote_f64 (local.get $value))))))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        (f64.store (i32.add (local.get $score) (i32.shl (local.get $n) (i32.const 3)))
                   (local.get $value))
        (i32.store (i32.add (local.get $docStart) (i32.shl (local.get $n) (i32.const 2)))
                   (local.get $ds))
        (i32.store (i32.add (local.get $docEnd) (i32.shl (local.get $n) (i32.const 2)))
                   (local.get $de))
        (i32.store (i32.add (local.get $docHash) (i32.shl (local.get $n) (i32.const 2)))
                   (local.get $hash))
        (i32.store (i32.add (local.get $lines) (i32.shl (local.get $n) (i32.const 2)))
                   (local.get $line))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $takenRunS (local.get $rs))
        (local.set $takenRunE (local.get $re))
        (local.set $i (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (global.set $n (local.get $n))
    (global.set $line (local.get $line))
    (global.set $runIdStart (local.get $takenRunS))
    (global.set $runIdEnd (local.get $takenRunE))
    (local.get $i))

  ;; A block of run rows in trec_eval order, when it is in score order already (the usual):
  ;; $n rows from the addresses $score (f64), $docStart and $docEnd (i32), their docnos in the
  ;; buffer at address 0. Writes the order (row indexes 0..$n-1: score descending, then docno
  ;; descending by bytes) at $out and returns 1; returns 0, leaving the order to the caller,
  ;; when a score is higher than the one before it (or not a number), or a tie group has more
  ;; than 16 rows. Tie groups are sorted by insertion, as `rankInto` in judge.ts does.
  (func (export "rankTies")
    (param $n i32) (param $score i32) (param $docStart i32) (param $docEnd i32) (param $out i32)
    (result i32)
    (local $i i32) (local $start i32) (local $end i32) (local $s f64) (local $x i32)
    (local $y i32) (local $j i32)
    (local.set $i (i32.const 1))
    (block $sorted
      (loop $next
        (br_if $sorted (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eqz (f64.le
              (f64.load (i32.add (local.get $score) (i32.shl (local.get $i) (i32.const 3))))
              (f64.load (i32.sub (i32.add (local.get $score) (i32.shl (local.get $i) (i32.const 3)))
                                 (i32.const 8)))))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.set $i (i32.const 0))
    (block $filled
      (loop $next
        (br_if $filled (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (block $done
      (loop $group
        (br_if $done (i32.ge_u (local.get $start) (local.get $n)))
        (local.set $s (f64.load (i32.add (local.get $score) (i32.shl (local.get $start) (i32.const 3)))))
        (local.set $end (i32.add (local.get $start) (i32.const 1)))
        (block $ended
          (loop $tie
            (br_if $ended (i32.ge_u (local.get $end) (local.get $n)))
            (br_if $ended (f64.ne (local.get $s)
              (f64.load (i32.add (local.get $score) (i32.shl (local.get $end) (i32.const 3))))))
            (local.set $end (i32.add (local.get $end) (i32.const 1)))
            (br $tie)))
        (if (i32.gt_u (i32.sub (local.get $end) (local.get $start)) (i32.const 16))
          (then (return (i32.const 0))))
        ;; Insertion sort of [start, end): x goes before y when its docno is greater.
        (local.set $i (i32.add (local.get $start) (i32.const 1)))
        (block $sortedGroup
          (loop $insert
            (br_if $sortedGroup (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $x (i32.load (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $j (i32.sub (local.get $i) (i32.const 1)))
            (block $placed
              (loop $shift
                (br_if $placed (i32.lt_s (local.get $j) (local.get $start)))
                (local.set $y (i32.load (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 2)))))
                (br_if $placed (i32.le_s
                  (call $compareDocnos
                    (i32.load (i32.add (local.get $docStart) (i32.shl (local.get $x) (i32.const 2))))
                    (i32.load (i32.add (local.get $docEnd) (i32.shl (local.get $x) (i32.const 2))))
                    (i32.load (i32.add (local.get $docStart) (i32.shl (local.get $y) (i32.const 2))))
                    (i32.load (i32.add (local.get $docEnd) (i32.shl (local.get $y) (i32.const 2)))))
                  (i32.const 0)))
                (i32.store (i32.add (local.get $out) (i32.shl (i32.add (local.get $j) (i32.const 1))
                                                              (i32.const 2)))
                           (local.get $y))
                (local.set $j (i32.sub (local.get $j) (i32.const 1)))
                (br $shift)))
            (i32.store (i32.add (local.get $out) (i32.shl (i32.add (local.get $j) (i32.const 1))
                                                          (i32.const 2)))
                       (local.get $x))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $insert)))
        (local.set $start (local.get $end))
        (br $group)))
    (i32.const 1))

  ;; Docnos `[xs, xe)` and `[ys, ye)` compared as strcmp compares them (unsigned bytes, then
  ;; length): below 0, 0 or above 0. Eight bytes at a time: the first differing byte is where
  ;; the lowest set bit of the two loads' xor is (the bytes after a docno, within the memory,
  ;; are loaded but not compared).
  (func $compareDocnos (param $xs i32) (param $xe i32) (param $ys i32) (param $ye i32)
    (result i32)
    (local $m i32) (local $k i32) (local $d i64) (local $at i32)
    (local.set $m (select (i32.sub (local.get $xe) (local.get $xs))
                          (i32.sub (local.get $ye) (local.get $ys))
                          (i32.lt_u (i32.sub (local.get $xe) (local.get $xs))
                                    (i32.sub (local.get $ye) (local.get $ys)))))
    (block $equal
      (loop $word
        (br_if $equal (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $d (i64.xor (i64.load (i32.add (local.get $xs) (local.get $k)))
                               (i64.load (i32.add (local.get $ys) (local.get $k)))))
        (if (i64.ne (local.get $d) (i64.const 0))
          (then
            (local.set $at (i32.add (local.get $k)
                                    (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $d)) (i64.const 3)))))
            (br_if $equal (i32.ge_u (local.get $at) (local.get $m)))
            (return (i32.sub (i32.load8_u (i32.add (local.get $xs) (local.get $at)))
                             (i32.load8_u (i32.add (local.get $ys) (local.get $at)))))))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $word)))
    (i32.sub (i32.sub (local.get $xe) (local.get $xs)) (i32.sub (local.get $ye) (local.get $ys))))

  ;; A length as the qrels records write it: one byte below 255, else 255 and two bytes.
  (func $writeLength (param $at i32) (param $len i32) (result i32)
    (if (i32.lt_u (local.get $len) (i32.const 255))
      (then
        (i32.store8 (local.get $at) (local.get $len))
        (return (i32.add (local.get $at) (i32.const 1)))))
    (i32.store8 (local.get $at) (i32.const 255))
    (i32.store8 (i32.add (local.get $at) (i32.const 1)) (i32.shr_u (local.get $len) (i32.const 8)))
    (i32.store8 (i32.add (local.get $at) (i32.const 2)) (local.get $len))
    (i32.add (local.get $at) (i32.const 3)))

  ;; A relevance: one byte within -127..127, else 0x80 and four bytes (little-endian).
  (func $writeRelevance (param $at i32) (param $rel i32) (result i32)
    (if (i32.and (i32.gt_s (local.get $rel) (i32.const -128)) (i32.lt_s (local.get $rel) (i32.const 128)))
      (then
        (i32.store8 (local.get $at) (local.get $rel))
        (return (i32.add (local.get $at) (i32.const 1)))))
    (i32.store8 (local.get $at) (i32.const 0x80))
    (i32.store (i32.add (local.get $at) (i32.const 1)) (local.get $rel))
    (i32.add (local.get $at) (i32.const 5)))

  ;; Qrels lines `qid iter docno rel`, from $i while the line is usual and its query id is
  ;; the open range's ($qidLen bytes at $qid, then a blank; not starting with $comment): for
  ;; each, the record `qrels_index.ts` writes (the docno's bytes not shared with the previous
  ;; one, the $prevLen bytes at $prev, which it then holds) at $out, while the record fits
  ;; before $room. A relevance is an optional '-' and 1-9 digits. Returns the start of the
  ;; first line not taken; $written and $prevLen hold the bytes written and the last docno's
  ;; length, $line the last line number.
  (func (export "qrelsLines")
    (param $i i32) (param $end i32) (param $qid i32) (param $qidLen i32) (param $comment i32)
    (param $line i32) (param $prev i32) (param $prevLen i32) (param $out i32) (param $room i32)
    (result i32)
    (local $k i32) (local $c i32) (local $ds i32) (local $de i32) (local $len i32)
    (local $neg i32) (local $rel i32) (local $digits i32) (local $at i32) (local $shared i32)
    (local $most i32) (local $fresh i32) (local $b i32) (local $qidMask i64)
    (local.set $qidMask (call $qidMask (local.get $qidLen)))
    (local.set $at (local.get $out))
    (block $stop
      (loop $next
        (br_if $stop (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $stop (i32.eq (i32.load8_u (local.get $i)) (local.get $comment)))
        ;; The query id: the open range's, then a blank.
        (br_if $stop (call $otherQuery (local.get $i) (local.get $qid) (local.get $qidLen)
                                       (local.get $qidMask)))
        (local.set $k (i32.add (local.get $i) (local.get $qidLen)))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (local.get $k)))))
        ;; The iteration (not read), then the docno.
        (local.set $ds (call $blankEnd (call $fieldEnd (call $blankEnd (local.get $k)))))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (i32.sub (local.get $ds) (i32.const 1))))))
        (local.set $de (call $fieldEnd (local.get $ds)))
        (br_if $stop (i32.eq (local.get $de) (local.get $ds)))
        (br_if $stop (i32.eqz (call $isBlank (i32.load8_u (local.get $de)))))
        ;; The relevance.
        (local.set $k (call $blankEnd (local.get $de)))
        (local.set $neg (i32.eq (i32.load8_u (local.get $k)) (i32.const 45)))
        (local.set $k (i32.add (local.get $k) (local.get $neg)))
        (local.set $rel (i32.const 0))
        (local.set $digits (i32.const 0))
        (block $number
          (loop $digit
            (local.set $c (i32.sub (i32.load8_u (local.get $k)) (i32.const 48)))
            (br_if $number (i32.gt_u (local.get $c) (i32.const 9)))
            (br_if $stop (i32.eq (local.get $digits) (i32.const 9)))
            (local.set $rel (i32.add (i32.mul (local.get $rel) (i32.const 10)) (local.get $c)))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $digit)))
        (br_if $stop (i32.eqz (local.get $digits)))
        (local.set $k (call $blankEnd (local.get $k)))
        (br_if $stop (i32.ne (i32.load8_u (local.get $k)) (i32.const 10)))
        (if (local.get $neg) (then (local.set $rel (i32.sub (i32.const 0) (local.get $rel)))))
        ;; The record, if it fits (the longest form takes 12 bytes besides the docno's).
        (local.set $len (i32.sub (local.get $de) (local.get $ds)))
        (br_if $stop (i32.gt_u (local.get $len) (i32.const 65535)))
        (br_if $stop (i32.gt_u (i32.add (i32.add (local.get $at) (local.get $len)) (i32.const 12))
                               (local.get $room)))
        (local.set $most (select (local.get $len) (local.get $prevLen)
                                 (i32.lt_u (local.get $len) (local.get $prevLen))))
        (local.set $shared (i32.const 0))
        (block $differs
          (loop $byte
            (br_if $differs (i32.ge_u (local.get $shared) (local.get $most)))
            (br_if $differs (i32.ne (i32.load8_u (i32.add (local.get $prev) (local.get $shared)))
                                    (i32.load8_u (i32.add (local.get $ds) (local.get $shared)))))
            (local.set $shared (i32.add (local.get $shared) (i32.const 1)))
            (br $byte)))
        (local.set $fresh (i32.sub (local.get $len) (local.get $shared)))
        (if (i32.and (i32.lt_u (local.get $shared) (i32.const 15)) (i32.lt_u (local.get $fresh) (i32.const 4)))
          (then
            ;; Short: [shared << 4 | fresh << 2 | r], r the relevance when 0-2, else 3.
            (local.set $c (select (local.get $rel) (i32.const 3) (i32.lt_u (local.get $rel) (i32.const 3))))
            (i32.store8 (local.get $at)
              (i32.or (i32.or (i32.shl (local.get $shared) (i32.const 4))
                              (i32.shl (local.get $fresh) (i32.const 2)))
                      (local.get $c)))
            (local.set $at (i32.add (local.get $at) (i32.const 1))))
          (else
            ;; Long: [0xf0][shared][fresh].
            (i32.store8 (local.get $at) (i32.const 0xf0))
            (local.set $at (call $writeLength
              (call $writeLength (i32.add (local.get $at) (i32.const 1)) (local.get $shared))
              (local.get $fresh)))
            (local.set $c (i32.const 3))))
        ;; The new bytes, which the previous docno then holds.
        (local.set $b (local.get $shared))
        (block $copied
          (loop $byte
            (br_if $copied (i32.ge_u (local.get $b) (local.get $len)))
            (local.set $c (i32.load8_u (i32.add (local.get $ds) (local.get $b))))
            (i32.store8 (local.get $at) (local.get $c))
            (i32.store8 (i32.add (local.get $prev) (local.get $b)) (local.get $c))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $b (i32.add (local.get $b) (i32.const 1)))
            (br $byte)))
        ;; The relevance byte(s), unless the short form's r holds it.
        (if (i32.eqz (i32.and (i32.lt_u (local.get $shared) (i32.const 15))
                              (i32.and (i32.lt_u (local.get $fresh) (i32.const 4))
                                       (i32.lt_u (local.get $rel) (i32.const 3)))))
          (then (local.set $at (call $writeRelevance (local.get $at) (local.get $rel)))))
        (local.set $prevLen (local.get $len))
        (local.set $line (i32.add (local.get $line) (i32.const 1)))
        (local.set $i (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (global.set $written (i32.sub (local.get $at) (local.get $out)))
    (global.set $prevLen (local.get $prevLen))
    (global.set $line (local.get $line))
    (local.get $i))
)
