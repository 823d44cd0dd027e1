"""The adversarial soundness campaign of shiftdp: independent references
(:mod:`.references`), the randomized differential tester (:mod:`.checks`) and its
resumable Dask driver (:mod:`.runner`). Not part of the shiftdp wheel."""
