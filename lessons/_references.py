"""Every work the lessons cite, as the about page lists them.

One entry per work, in markdown. ``tests/test_references.py`` reads each
lesson's citations (author and year in its prose, every entry of its
research boxes' references) and checks that each is here, so a lesson that
starts citing a new work fails the test until the work is added.

>>> any("Khardon" in entry and "2007" in entry for entry in REFERENCES)
True
"""

from __future__ import annotations

#: The five sources the lab reproduces (the project's papers), then the works they and the
#: lessons cite, alphabetically by first author.
REFERENCES: tuple[str, ...] = (
    "R. Khardon and G. Wachman, *Noise tolerant variants of the perceptron algorithm*, "
    "Journal of Machine Learning Research 8 (2007) 227–248.",
    "Y. Li, H. Zaragoza, R. Herbrich, J. Shawe-Taylor and J. Kandola, *The perceptron "
    "algorithm with uneven margins*, ICML 2002, 379–386 (PAUM).",
    "I. Cantador and J. R. Dorronsoro, *Boosting parallel perceptrons for label noise "
    "reduction in classification problems*, IWINAC 2005, LNCS 3562, 586–593 (NR boosting).",
    "CS 446 Machine Learning, lecture notes on on-line learning (the *course notes*: "
    "perceptron, Winnow, the cycling theorem, the thick separator, mistake bounds).",
    "LingPipe documentation, *About averaged kernel perceptrons* (the averaged kernel "
    "perceptron's counts).",
    "M. A. Aizerman, E. M. Braverman and L. I. Rozonoer, *Theoretical foundations of the "
    "potential function method in pattern recognition learning*, Automation and Remote "
    "Control 25 (1964) 821–837 (the kernel perceptron).",
    "P. Auer, H. Burgsteiner and W. Maass, *Reducing communication for distributed "
    "learning in neural networks*, ICANN 2002, LNCS 2415, 123–128 (the p-delta rule, as "
    "Cantador & Dorronsoro cite it); the journal version: *A learning rule for very simple "
    "universal approximators consisting of a single layer of perceptrons*, Neural Networks "
    "21 (2008) 786–795.",
    "H. D. Block and S. A. Levin, *On the boundedness of an iterative procedure for solving "
    "a system of linear inequalities*, Proceedings of the AMS 26 (1970) 229–235 (the general "
    "proof of the cycling theorem).",
    "N. Cristianini and J. Shawe-Taylor, *An introduction to support vector machines and "
    "other kernel-based learning methods*, Cambridge University Press (2000) (the soft-margin "
    "SVM; the form of the perceptron Khardon & Wachman follow, and its mistake bounds with "
    "the threshold kept apart).",
    "N. Cesa-Bianchi, A. Conconi and C. Gentile, *On the generalization ability of on-line "
    "learning algorithms*, IEEE Transactions on Information Theory 50(9) (2004) 2050–2057 "
    "(on-line loss bounds as batch error bounds).",
    "K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, *Online "
    "passive-aggressive algorithms*, JMLR 7 (2006).",
    "R. O. Duda, P. E. Hart and D. G. Stork, *Pattern classification*, 2nd ed., Wiley (2001) "
    "(the linear machine, §5.2.2; Kesler's construction and the multiclass fixed-increment "
    "rule, §5.12).",
    "Y. Freund and R. E. Schapire, *Large margin classification using the perceptron "
    "algorithm*, Machine Learning 37(3) (1999) 277–296 (voted and averaged perceptron).",
    "S. I. Gallant, *Perceptron-based learning algorithms*, IEEE Transactions on Neural "
    "Networks 1(2) (1990) 179–191 (the pocket algorithm).",
    "C. Gentile, *A new approximate maximal margin classification algorithm*, JMLR 2 (2001) "
    "(ALMA).",
    "D. P. Helmbold and M. K. Warmuth, *On weak learning*, Journal of Computer and System "
    "Sciences 50 (1995) 551–573 (a hypothesis of an on-line run picked at random, for batch "
    "learning; the basis of the vote, as the LingPipe notes say).",
    "M. Kearns, M. Li, L. Pitt and L. G. Valiant, *Recent results on boolean concept "
    "learning*, Fourth International Workshop on Machine Learning (1987) 337–352 (the "
    "longest survivor).",
    "J. Kivinen, M. K. Warmuth and P. Auer, *The perceptron algorithm versus Winnow: linear "
    "versus logarithmic mistake bounds when few input variables are relevant*, Artificial "
    "Intelligence 97 (1997) 325–343.",
    "R. Kohavi, *A study of cross-validation and bootstrap for accuracy estimation and model "
    "selection*, IJCAI 1995, 1137–1143.",
    "W. Krauth and M. Mézard, *Learning algorithms with optimal stability in neural "
    "networks*, Journal of Physics A 20 (1987) L745–L752 (the perceptron with margin).",
    "N. Littlestone, *Learning quickly when irrelevant attributes abound: a new "
    "linear-threshold algorithm*, Machine Learning 2 (1988) 285–318 (Winnow).",
    "M. Minsky and S. Papert, *Perceptrons: an introduction to computational geometry*, "
    "MIT Press (1969) (the cycling theorem).",
    "A. B. J. Novikoff, *On convergence proofs on perceptrons*, Symposium on the "
    "Mathematical Theory of Automata 12 (1962) 615–622 (the mistake bound (R/γ)²).",
    "F. Rosenblatt, *The perceptron: a probabilistic model for information storage and "
    "organization in the brain*, Psychological Review 65(6) (1958) 386–408.",
    "R. A. Servedio, *On PAC learning using Winnow, Perceptron, and a Perceptron-like "
    "algorithm*, COLT 1999, 296–307 (the average algorithm).",
    "S. Shalev-Shwartz and S. Ben-David, *Understanding machine learning: from theory to "
    "algorithms*, Cambridge University Press (2014) (section 21.4: the perceptron as on-line "
    "gradient descent on the hinge loss; section 21.7: from on-line to batch).",
    "L. G. Valiant, *A theory of the learnable*, Communications of the ACM 27(11) (1984) "
    "1134–1142 (the PAC model).",
    "S. Varma and R. Simon, *Bias in error estimation when using cross-validation for model "
    "selection*, BMC Bioinformatics 7 (2006) 91.",
)
